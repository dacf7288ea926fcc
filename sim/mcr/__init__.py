"""国标麻将 (MCR, the Mahjong Competition Rules): four seats on all 136 tiles and 8 flowers, chow from the
seat on the left, an 8-fan minimum, seat and round winds across a 16-deal match. See docs/rules/mcr-table.md.

The family is being built (issue 38): its table, engine, players and switches are here; the registry line
and the rest of the checklist (docs/layout.md#adding-a-family) come with the remaining modules."""
