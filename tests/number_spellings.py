"""Spellings of numbers that Python's ``float()`` reads (issue 34, class L), for property tests of
the YAML reader and the parameter checks: signs, leading and trailing dots, exponents with or
without a dot and a sign, either case of ``e``, and PEP 515 underscores between digits."""

from __future__ import annotations

from hypothesis import strategies as st

_DIGITS = st.text("0123456789", min_size=1, max_size=5)
# A run of digits, sometimes with underscores between them ("1_000").
DIGITS = st.builds(
    lambda d, split: "_".join(d) if split and len(d) > 1 else d, _DIGITS, st.booleans()
)
SIGN = st.sampled_from(["", "+", "-"])
MANTISSA = st.one_of(
    st.builds(lambda whole, fraction: f"{whole}.{fraction}", DIGITS, DIGITS | st.just("")),
    st.builds(lambda fraction: f".{fraction}", DIGITS),
    DIGITS,  # a whole number: a float only with an exponent (else YAML reads an int)
)
EXPONENT = st.builds(
    lambda e, sign, digits: f"{e}{sign}{digits}",
    st.sampled_from(["e", "E"]),
    SIGN,
    st.text("0123456789", min_size=1, max_size=3),
)


def _spelled(sign: str, mantissa: str, exponent: str) -> str | None:
    if "." not in mantissa and not exponent:
        return None
    return f"{sign}{mantissa}{exponent}"


#: Spellings of floats (a dot or an exponent), each one ``float()`` reads.
FLOAT_SPELLINGS = st.builds(_spelled, SIGN, MANTISSA, EXPONENT | st.just("")).filter(
    lambda spelled: spelled is not None
)
