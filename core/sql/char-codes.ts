/**
 * UTF-16 code units the SQL tokenizer compares against, by name: `c === SINGLE_QUOTE` reads as
 * what it means where `c === 39` does not. Plain numeric constants (not an object), so the hot
 * loop compares with immediates. `ASCII_CASE_BIT` folds an ASCII letter to lower case:
 * `(c | ASCII_CASE_BIT) === LOWER_E` is true for `E` and `e` only.
 *
 * @example
 * if (sql.charCodeAt(i) === SINGLE_QUOTE) return scanString(sql, i);
 */

export const TAB = 9;
export const LINE_FEED = 10;
export const VERTICAL_TAB = 11;
export const FORM_FEED = 12;
export const CARRIAGE_RETURN = 13;
export const SPACE = 32;
export const DOUBLE_QUOTE = 34;
export const HASH = 35;
export const DOLLAR = 36;
export const AMPERSAND = 38;
export const SINGLE_QUOTE = 39;
export const OPEN_PAREN = 40;
export const CLOSE_PAREN = 41;
export const ASTERISK = 42;
export const PLUS = 43;
export const COMMA = 44;
export const MINUS = 45;
export const DOT = 46;
export const SLASH = 47;
export const DIGIT_0 = 48;
export const DIGIT_9 = 57;
export const COLON = 58;
export const SEMICOLON = 59;
export const GREATER_THAN = 62;
export const QUESTION_MARK = 63;
export const AT_SIGN = 64;
export const UPPER_A = 65;
export const UPPER_F = 70;
export const UPPER_Z = 90;
export const OPEN_BRACKET = 91;
export const BACKSLASH = 92;
export const CLOSE_BRACKET = 93;
export const UNDERSCORE = 95;
export const BACKTICK = 96;
export const LOWER_A = 97;
export const LOWER_B = 98;
export const LOWER_E = 101;
export const LOWER_F = 102;
export const LOWER_N = 110;
export const LOWER_U = 117;
export const LOWER_X = 120;
export const LOWER_Z = 122;
export const OPEN_BRACE = 123;
export const CLOSE_BRACE = 125;

/** `c | ASCII_CASE_BIT` is the lower-case form of an ASCII letter `c`. */
export const ASCII_CASE_BIT = 32;
/** The first code unit past ASCII: from here on, anything but a space is an identifier character. */
export const FIRST_NON_ASCII = 0x80;

/** Unicode spaces besides TAB, VT, FF and SPACE (`\s` in JavaScript, minus the line breaks). */
export const NEXT_LINE = 0x85;
export const NO_BREAK_SPACE = 0xa0;
export const EN_QUAD = 0x2000;
export const ZERO_WIDTH_SPACE = 0x200b;
export const LINE_SEPARATOR = 0x2028;
export const PARAGRAPH_SEPARATOR = 0x2029;
export const IDEOGRAPHIC_SPACE = 0x3000;
export const BYTE_ORDER_MARK = 0xfeff;

/** The two halves of a UTF-16 surrogate pair: a high one, then a low one. */
export const HIGH_SURROGATE_FIRST = 0xd800;
export const HIGH_SURROGATE_LAST = 0xdbff;
export const LOW_SURROGATE_FIRST = 0xdc00;
export const LOW_SURROGATE_LAST = 0xdfff;
