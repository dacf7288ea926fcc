"""Tables, statistics and economics computed from simulation output."""
