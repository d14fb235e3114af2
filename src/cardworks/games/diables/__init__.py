"""Diables plugged into the engine: its tiles' scoring, actions, rules and scenario positions."""
