"""berserk"""
