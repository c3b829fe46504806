"""Law numbers of each text, keyed by the ICF number of the law the engine applies.

The engine thinks in ICF terms: it names every law it applies by its ICF number (the key
below) and the ruleset translates that to the number of the same law in the text the match
is played under. A key missing from a text's table means that text has no such law; the
engine then applies the nearest general law of that text and cites that instead (see
`Ruleset.cite`). Keys with a letter are the law's clause: "72(a)".
"""

from __future__ import annotations

# ICF Laws of Carrom (umpired): the key is the number.
ICF_LAWS: tuple[str, ...] = (
    "15", "43", "44", "45(a)", "45(b)", "45(c)", "47",
    "48", "49(a)", "49(b)", "51",
    "52(a)", "52(b)", "53(a)", "53(b)", "53(c)", "54", "55", "56(a)", "56(b)", "57",
    "58", "59",
    "63(a)", "63(b)", "64(a)", "64(b)",
    "65(a)", "65(b)", "65(c)",
    "72(a)", "72(b)", "72(c)", "73", "74", "75", "76", "77(a)", "77(b)", "78(a)", "78(b)",
    "80", "82(b)", "83", "87(a)", "87(b)", "91",
    "92", "93", "95(a)", "95(b)", "95(c)", "95(d)", "96", "97(a)", "97(b)",
    "98(a)", "98(b)", "99(a)", "99(b)", "100(a)", "100(b)", "101(a)", "101(b)",
    "102(a)", "102(b)", "103(a)", "103(b)", "104(a)", "104(b)", "105(a)", "105(b)",
    "106(a)", "106(b)", "107(a)", "107(b)", "108(a)", "108(b)", "109(a)", "109(b)",
    "110(a)", "110(b)", "111(a)", "111(b)", "112(a)", "112(b)",
    "116", "125(a)", "125(b)", "137", "139", "140",
)  # fmt: skip

# ECC self-umpired laws. The ECC text has no improper-stroke variants (its law 42 has the
# opponent stop a wrong stroke before it is taken, without penalty), so the "(b)" clauses map
# to the same law as their "(a)" clause or are absent.
ECC_LAWS: dict[str, str] = {
    "15": "XV", "43": "22", "44": "23", "45(a)": "24", "45(b)": "25", "45(c)": "26",
    "48": "28", "49(a)": "29", "49(b)": "29", "51": "31",
    "52(a)": "32", "52(b)": "33", "53(a)": "34", "53(b)": "35", "53(c)": "36", "54": "37",
    "55": "38", "56(a)": "39",
    "63(a)": "43", "63(b)": "43", "64(a)": "43", "64(b)": "43",
    "65(a)": "44", "65(b)": "45", "65(c)": "46",
    "72(a)": "56", "72(c)": "57", "73": "58", "74": "59", "75": "60", "78(a)": "61",
    "78(b)": "62", "80": "66", "82(b)": "68", "83": "69", "87(a)": "73", "91": "78",
    "92": "79", "93": "80", "95(a)": "82", "95(b)": "83", "95(c)": "84", "95(d)": "85",
    "96": "86", "97(a)": "87", "97(b)": "88", "98(a)": "89", "99(a)": "90", "100(a)": "91",
    "101(a)": "92", "102(a)": "93", "104(a)": "94", "105(a)": "95", "106(a)": "96",
    "107(a)": "97", "108(a)": "98", "109(a)": "99", "110(a)": "100", "111(a)": "101",
    "112(a)": "102",
    "116": "105", "137": "124", "140": "124",
    # ECC-only: a violation the opponent should have stopped before the stroke (no penalty).
    "improper_unpenalised": "42",
}  # fmt: skip

# Basic International rules: a short text; many ICF laws have no counterpart.
BASIC_LAWS: dict[str, str] = {
    "15": "27", "43": "11", "44": "12", "45(a)": "13(a)", "45(b)": "13(a)", "45(c)": "13(b)",
    "48": "14", "49(a)": "15(a)", "49(b)": "15(b)",
    "52(a)": "16", "52(b)": "16", "53(a)": "17(a)", "53(b)": "17(b)", "53(c)": "17(c)",
    "54": "18", "56(a)": "19", "57": "20",
    "64(a)": "21(a)", "64(b)": "21(b)", "63(a)": "21(a)", "63(b)": "21(a)",
    "72(a)": "22(a)", "72(b)": "22(a)", "72(c)": "22(b)", "73": "23", "74": "24", "75": "23",
    "76": "21(b)", "77(a)": "21(b)", "77(b)": "21(b)",
    "92": "25", "95(a)": "26", "96": "27", "97(a)": "28",
    "107(a)": "29", "107(b)": "29", "108(a)": "29", "108(b)": "29",
    "103(a)": "30", "103(b)": "30",
}  # fmt: skip


def icf_table() -> dict[str, str]:
    return {number: number for number in ICF_LAWS}
