"""coup"""
