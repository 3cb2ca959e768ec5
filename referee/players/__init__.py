"""players"""
