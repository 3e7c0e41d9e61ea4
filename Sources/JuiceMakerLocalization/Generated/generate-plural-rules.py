#!/usr/bin/env python3
"""Writes CLDRPluralRules.swift, the CLDR plural rules of every language, and the plural
reference table the tests check it against.

    pip install babel==2.18.0
    python3 Sources/JuiceMakerLocalization/Generated/generate-plural-rules.py

Babel ships CLDR's plural rules (`Locale.plural_form`); this turns each distinct rule set
into a Swift function over the CLDR operands, and each language (and each regional form
whose rules differ from its language's, such as pt-PT) into a case of a lookup. The
categories a rule set can choose are found by evaluating it, with Babel's own evaluator,
over whole numbers and numbers with a fraction; the reference table the tests read is
written by the same evaluator, so the tests check the Swift translation against Babel.
"""

import decimal
import os
import subprocess
import sys

import babel
from babel import Locale, localedata
from babel.core import get_cldr_version
from babel.plural import PluralRule

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
SWIFT = os.path.join(HERE, "CLDRPluralRules.swift")
REFERENCE = os.path.join(
    ROOT, "Tests", "JuiceMakerKitTests", "Fixtures", "Localization", "PluralReference.tsv")

CATEGORIES = ["zero", "one", "two", "few", "many", "other"]

# The languages the reference table covers: those the issue names, and the rule sets with
# the most categories or the most unusual operands.
REFERENCE_LANGUAGES = [
    "en", "ko", "ja", "zh", "ru", "uk", "pl", "cs", "ar", "he", "fr", "pt", "pt-PT", "lt", "cy",
    "lv", "sl", "ga", "gd", "mt", "br", "be", "ro", "is", "mk", "si", "da", "fil", "es", "it",
    "de", "ca", "sk", "hr", "sr", "bs", "kw", "gv", "hy", "ak",
]


def whole_samples():
    numbers = list(range(0, 1101))
    for exponent in range(4, 19):
        numbers += [10**exponent, 10**exponent + 1, 2 * 10**exponent, 10**exponent + 21]
    numbers += [1000000 * k for k in range(1, 12)]
    return sorted(set(numbers))


def fraction_samples():
    # Numbers a `Double` argument can take, written as their shortest decimal form.
    fractions = ["1", "2", "3", "5", "9", "01", "02", "11", "12", "19", "21", "25", "5", "75",
                 "101", "111", "999", "0001", "1234"]
    result = []
    for whole in list(range(0, 131)) + [1000, 1000000]:
        for fraction in fractions:
            result.append(f"{whole}.{fraction}")
    return result


WHOLE = whole_samples()
LARGE = {200, 201, 1000, 1001, 1021, 10**5, 10**6, 10**6 + 1, 2 * 10**6, 10**7, 10**18}
FRACTIONS = fraction_samples()


def tag(identifier):
    return identifier.replace("_", "-")


def rule_sets():
    """Every language's rules, and the regional forms whose rules differ from their language's."""
    by_language = {}
    for identifier in sorted(localedata.locale_identifiers()):
        rules = Locale.parse(identifier).plural_form.rules
        key = tuple(sorted(rules.items(), key=lambda item: CATEGORIES.index(item[0])))
        language = identifier.split("_")[0]
        if "_" not in identifier:
            by_language[identifier] = key
        elif by_language.get(language) != key:
            by_language[tag(identifier)] = key
    return by_language


class SwiftCompiler:
    """Compiles Babel's parsed rules to a Swift condition over `PluralOperands` `o`."""

    def compile(self, node):
        op, args = node
        return getattr(self, "compile_" + op)(*args)

    def compile_and(self, left, right):
        return f"({self.compile(left)} && {self.compile(right)})"

    def compile_or(self, left, right):
        return f"({self.compile(left)} || {self.compile(right)})"

    def compile_not(self, operand):
        return f"!{self.compile(operand)}"

    def compile_relation(self, method, expression, range_list):
        if method != "in":
            raise ValueError(f"unsupported relation {method}")
        operand, modulus = self.operand(expression)
        field = "i" if operand == "n" else operand
        value = f"o.{field}" if modulus is None else f"o.{field} % {modulus}"
        tests = []
        for (_, (low,)), (_, (high,)) in range_list[1]:
            if low == high:
                tests.append(f"{value} == {low}")
            else:
                tests.append(f"({low}...{high}).contains({value})")
        test = tests[0] if len(tests) == 1 else "(" + " || ".join(tests) + ")"
        # `n` takes a value in a range only when it is whole: 1.5 is not `in 1..2`.
        return f"(o.isWhole && {test})" if operand == "n" else f"({test})"

    def operand(self, expression):
        op, args = expression
        if op == "mod":
            (inner, _), (_, (modulus,)) = args
            return self.name(inner), modulus
        return self.name(op), None

    def name(self, op):
        # A whole `n` is `i`; `c` and `e` (compact exponents) are always 0 here.
        return {"n": "n", "i": "i", "v": "v", "w": "w", "f": "f", "t": "t", "c": "e", "e": "e"}[op]


def wrapped(text, first, rest, width=100):
    lines, line = [], first
    for word in text.split(" "):
        if len(line) + len(word) > width and line.strip() not in ("///", "/// -"):
            lines.append(line.rstrip())
            line = rest
        line += word + " "
    lines.append(line.rstrip())
    return lines


def evaluate(rule, number):
    return rule(decimal.Decimal(number) if isinstance(number, str) else number)


def main():
    by_language = rule_sets()
    distinct = {}
    for language, key in sorted(by_language.items()):
        distinct.setdefault(key, []).append(language)
    compiler = SwiftCompiler()
    preferred = ["en", "ko", "ru", "pl", "cs", "ar", "he", "fr", "pt", "lt", "cy", "lv", "ga"]

    cases = []
    for key, languages in distinct.items():
        name = next((p for p in preferred if p in languages), None) or languages[0]
        name = name.replace("-", "_")
        name = f"`{name}`" if name in ("is", "in", "as", "do", "if") else name
        rule = PluralRule(dict(key))
        whole = {evaluate(rule, n) for n in WHOLE}
        fraction = {evaluate(rule, n) for n in FRACTIONS}
        conditions = []
        for category, node in sorted(rule.abstract, key=lambda item: CATEGORIES.index(item[0])):
            conditions.append((category, compiler.compile(node)))
        cases.append({
            "name": name, "languages": languages, "rules": key, "conditions": conditions,
            "whole": [c for c in CATEGORIES if c in whole],
            "all": [c for c in CATEGORIES if c in whole | fraction | {"other"}],
        })
    cases.sort(key=lambda case: case["name"].strip("`"))

    out = []
    w = out.append
    w(f"// Generated by generate-plural-rules.py from CLDR {get_cldr_version()}, as Babel "
      f"{babel.__version__} ships it.")
    w("// Do not edit: run the script again to update it.")
    w("")
    w("/// A set of CLDR plural rules, shared by every language listed on its case.")
    w("///")
    w(f"/// From CLDR {get_cldr_version()}. Each case is named after one of its languages.")
    w("package enum CLDRPluralRuleSet: Sendable, Hashable, CaseIterable {")
    for case in cases:
        for line in wrapped(", ".join(case["languages"]), "  /// ", "  /// "):
            w(line)
        for category, text in case["rules"]:
            for line in wrapped(f"{category}: `{text}`", "  /// - ", "  ///   "):
                w(line)
        w(f"  case {case['name']}")
    w("")
    w("  /// The CLDR version the rules come from.")
    w(f"  package static let cldrVersion = \"{get_cldr_version()}\"")
    w("")
    w("  /// The rule set of a language tag as CLDR spells it (`ru`, `pt-PT`), or `nil`.")
    w("  ///")
    w("  /// - Parameter tag: A normalized language tag; only a language or a language and region.")
    w("  package init?(tag: String) {")
    w("    switch tag {")
    for case in cases:
        quoted = [f'"{language}"' for language in case["languages"]]
        lines = []
        line = "    case "
        for index, item in enumerate(quoted):
            piece = item + ("," if index < len(quoted) - 1 else ":")
            if len(line) + len(piece) + 1 > 100:
                lines.append(line.rstrip())
                line = "      "
            line += piece + " "
        lines.append(line.rstrip())
        out.extend(lines)
        w(f"      self = .{case['name']}")
    w("    default: return nil")
    w("    }")
    w("  }")
    w("")
    w("  /// The category of a finite number.")
    w("  ///")
    w("  /// - Parameter o: The number's operands.")
    w("  /// - Returns: The category; `other` when no rule matches.")
    w("  func category(_ o: PluralOperands) -> PluralCategory {")
    w("    switch self {")
    for case in cases:
        w(f"    case .{case['name']}:")
        for category, condition in case["conditions"]:
            w(f"      if {condition} {{ return .{category} }}")
        w("      return .other")
    w("    }")
    w("  }")
    w("")
    w("  /// Every category the rules choose for some number, in CLDR order; `other` always.")
    w("  var categories: [PluralCategory] {")
    w("    switch self {")
    for case in cases:
        w(f"    case .{case['name']}: [{', '.join('.' + c for c in case['all'])}]")
    w("    }")
    w("  }")
    w("")
    w("  /// Every category the rules choose for some whole number, in CLDR order.")
    w("  var wholeNumberCategories: [PluralCategory] {")
    w("    switch self {")
    for case in cases:
        w(f"    case .{case['name']}: [{', '.join('.' + c for c in case['whole'])}]")
    w("    }")
    w("  }")
    w("}")
    with open(SWIFT, "w") as file:
        file.write("\n".join(out) + "\n")
    # As the rest of the package is formatted; the script's output is what is committed.
    subprocess.run(["swift", "format", "format", "-i", SWIFT], check=True)

    rows = [f"# Generated by generate-plural-rules.py with Babel {babel.__version__}'s evaluator "
            f"of CLDR {get_cldr_version()}: language, number, category."]
    rows[0] = rows[0].replace("language, number, category", "language, category, the numbers")
    numbers = [str(n) for n in WHOLE if n <= 130 or n in LARGE] + FRACTIONS[::11]
    for language in REFERENCE_LANGUAGES:
        rule = PluralRule(dict(by_language[language]))
        chosen = {}
        for number in numbers:
            chosen.setdefault(evaluate(rule, number), []).append(number)
        for category in CATEGORIES:
            if category in chosen:
                rows.append(f"{language}\t{category}\t{' '.join(chosen[category])}")
    with open(REFERENCE, "w") as file:
        file.write("\n".join(rows) + "\n")
    print(f"{len(cases)} rule sets, {len(by_language)} languages; {len(rows) - 1} reference rows",
          file=sys.stderr)


if __name__ == "__main__":
    main()
