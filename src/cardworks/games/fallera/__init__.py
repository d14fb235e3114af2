"""La Fallera Calavera plugged into the engine: cards, state, actions, rules and setup."""
