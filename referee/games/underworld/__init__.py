"""underworld"""
