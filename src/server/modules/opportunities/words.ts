import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { opportunities as o } from '../../db/schema';

/**
 * The words of the catalogue's searches, the brands' (search.ts) and the admins' (service.ts):
 * every word must be in the outlet name, title or description (the last one may be the start of a
 * word), or, for a word of TYPO_MIN_LENGTH letters or more, be close to the outlet's name (pg_trgm's
 * word similarity at least TYPO_SIMILARITY: about one typo). Decision 017.
 */

/** pg_trgm word similarity from which a text counts as the outlet's name with a typo. */
export const TYPO_SIMILARITY = 0.45;

/** A word this long or longer may also match an outlet's name with a typo in it. */
export const TYPO_MIN_LENGTH = 5;

/** The words of a search text (letters and digits, lower case; at most 20). */
export function searchWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 20);
}

/**
 * The words as a tsquery: every word; the last as a prefix, unless `lastIsPrefix` is false. A word
 * that begins with a digit matches the same digits after a hyphen too: PostgreSQL's parser reads
 * "COVID-19" or "2024-25" in a title as `covid`, `-19` and `2024`, `-25`, while the search's words
 * are split at the hyphen ("19", "25").
 */
export const tsQueryOf = (words: string[], lastIsPrefix = true) =>
  words
    .map((w, i) => {
      const mark = lastIsPrefix && i === words.length - 1 ? ':*' : '';
      return /^\p{N}/u.test(w) ? `('${w}'${mark} | '-${w}'${mark})` : `'${w}'${mark}`;
    })
    .join(' & ');

/**
 * Matches the words (see above), each in the text or, if long enough, close to the outlet's name
 * (the dashboard's search, service.ts, writes the same with placeholders).
 */
export function textMatch(words: string[]): SQL {
  const each = words.map((word, i) => {
    const exact = sql`${o.search} @@ to_tsquery('simple', ${tsQueryOf([word], i === words.length - 1)})`;
    return word.length >= TYPO_MIN_LENGTH ? sql`(${exact} OR ${word} <% ${o.outletName})` : exact;
  });
  return sql`(${sql.join(each, sql` AND `)})`;
}

/**
 * The same setting inside one statement (the admins' dashboard, service.ts): a condition on no
 * column of the rows, so PostgreSQL checks it once (an InitPlan, a one-time filter on a Result) before
 * it reads a row of the scan under it; `true` keeps the setting to the statement's own implicit
 * transaction. One statement where `withTypoTolerance` sends four (BEGIN, the setting, the page, COMMIT).
 */
export const typoTolerant = sql`(SELECT set_config('pg_trgm.word_similarity_threshold', ${sql.raw(`'${TYPO_SIMILARITY}'`)}, true)) IS NOT NULL`;

/**
 * Runs `fn` where `<%` means a word similarity of at least TYPO_SIMILARITY (pg_trgm's setting is
 * per session; set_config(…, true) keeps it to this transaction, so a pooled connection is left as
 * it was).
 */
export function withTypoTolerance<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT set_config('pg_trgm.word_similarity_threshold', ${String(TYPO_SIMILARITY)}, true)`);
    return fn(tx as unknown as Db);
  });
}
