"""Runs at scale over every family: sharded runs and their Parquet records, duels and leagues, the event
logs' round trip, ev's calibration runs, a Dask worker's start. It may import every layer below it,
``analysis`` included (docs/layout.md)."""
