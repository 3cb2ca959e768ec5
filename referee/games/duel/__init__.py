"""duel"""
