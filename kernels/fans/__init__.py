"""Fan evaluators, one per way of counting fans: ``mcr`` (the 二人 family's MCR-style fans, every reading,
the 不计 exclusions and the best total) and ``xuezhan`` (血战's multiplying fans, 根 and the cap)."""
