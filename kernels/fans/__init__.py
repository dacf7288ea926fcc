"""Fan evaluators, one per way of counting fans: ``mcr`` (the 二人 family's MCR-style fans, every reading,
the 不计 exclusions and the best total), ``mcr_all_suits`` (MCR on three suits: all 81 fans), ``xuezhan``
(血战's multiplying fans, 根 and the cap) and ``challenge`` (004's 闯关 game); ``fan_rows``, the sparse fan
rows the two MCR evaluators share."""
