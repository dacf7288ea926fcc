"""What a command holds its options to before any work starts: the one error a bad option is, and ranges."""


class UserError(Exception):
    """A problem with what the user asked for, reported as one line (``mjsim`` prints it and exits 2)."""


def within(name: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise UserError(f"{name} must be from {low:,} to {high:,}, not {value:,}")
