/**
 * The word-prefix rule of title keywords, written once: a keyword matches a title when each of
 * its words starts a word of the title, case- and accent-insensitively ("eng" finds "Engineer",
 * "software eng" finds "Senior Software Engineer", "gineer" finds nothing).
 *
 * A title is kept as its search text (its words between single spaces), and a keyword as its
 * needles (each word after a space): the rule is then "the search text holds every needle". The
 * in-memory test (`searchTextMatches`), the own index's SQL (`LIKE '%<needle>%'` on the stored
 * search text, `titleKeywordSql`), the simulated partners and the watch index all read it here.
 */
import { joinSql, sql, type SqlCondition } from './sql-condition.js';

/**
 * Letters that carry no combining mark to strip (NFKD leaves them whole), folded as PostgreSQL's
 * `unaccent` folds them: "Straße" is found by `strasse`, "Łódź" by `lodz`, "Søren" by `soren`.
 */
const LETTER_FOLDS: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  ŀ: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ħ: 'h',
  ı: 'i',
  ŋ: 'n',
  ſ: 's',
};
const FOLDED_LETTER = new RegExp(`[${Object.keys(LETTER_FOLDS).join('')}]`, 'g');

/** The words of a title or keyword: lower case, accents removed, split on anything but letters, digits, + and #. */
export function titleWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(FOLDED_LETTER, (letter) => LETTER_FOLDS[letter] ?? letter)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^a-z0-9+#]+/)
    .filter(Boolean);
}

/**
 * A title as the own index stores it for keyword search: its words between single spaces, with a
 * leading and a trailing space, so " word" is found exactly where a title word starts with "word".
 */
export function titleSearchText(title: string): string {
  return ` ${titleWords(title).join(' ')} `;
}

/**
 * What a keyword looks for in a search text: each of its words after a space. None for a keyword
 * without words, which matches nothing. Needles hold only [a-z0-9+# ], nothing LIKE reads as a wildcard.
 */
export function keywordNeedles(keyword: string): string[] {
  return titleWords(keyword).map((word) => ` ${word}`);
}

/** Whether a keyword's needles (`keywordNeedles`) are all in this search text; none never match. */
const needlesMatch = (searchText: string, needles: readonly string[]): boolean =>
  needles.length > 0 && needles.every((needle) => searchText.includes(needle));

/** Whether a keyword matches the title of this search text (`titleSearchText`). */
export function searchTextMatches(searchText: string, keyword: string): boolean {
  return needlesMatch(searchText, keywordNeedles(keyword));
}

/** Whether a keyword matches a title. */
export function titleMatches(title: string, keyword: string): boolean {
  return searchTextMatches(titleSearchText(title), keyword);
}

/** `anyKeywordMatches`'s tests, one per keywords array: a filter's keywords are tested against many titles. */
const keywordTests = new WeakMap<readonly string[], (searchText: string) => boolean>();

/**
 * Whether any of the keywords matches this search text (`titleSearchText`), as `searchTextMatches`
 * of each would say; the keywords' needles are worked out once per array, not once per title.
 */
export function anyKeywordMatches(searchText: string, keywords: readonly string[]): boolean {
  let test = keywordTests.get(keywords);
  if (test === undefined) {
    const needles = keywords.map(keywordNeedles);
    test = (text) => needles.some((words) => needlesMatch(text, words));
    keywordTests.set(keywords, test);
  }
  return test(searchText);
}

/** `searchTextMatches` as SQL on the stored search text `column` (e.g. `j.title_search`). */
export function titleKeywordSql(column: SqlCondition, keyword: string): SqlCondition {
  const needles = keywordNeedles(keyword);
  if (needles.length === 0) return sql`FALSE`;
  return sql`(${joinSql(
    needles.map((needle) => sql`${column} LIKE ${`%${needle}%`}`),
    ' AND ',
  )})`;
}
