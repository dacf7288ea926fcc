"""Four-player 国标麻将 (MCR). On this branch the package holds only `botzone`, the translator between the
engine's neutral events and actions and Botzone's Chinese Standard Mahjong bot protocol."""
