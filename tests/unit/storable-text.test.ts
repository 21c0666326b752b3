import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DomainError } from '../../src/server/lib/errors';
import { parse } from '../../src/server/lib/validate';
import { UNSTORABLE_TEXT_MESSAGE, isStorableText, unstorablePaths } from '../../src/shared/schemas/storable-text';

describe('isStorableText', () => {
  it.each([
    ['plain text', 'Acme Coffee'],
    ['an empty string', ''],
    ['other control characters', '\u0001\u0007\b\t\n\u001b\u001f\u007f\u0085'],
    ['a surrogate pair (emoji)', '😀 👩‍👩‍👧‍👦 𝕏'],
    ['marks and noncharacters', '\u202eevil\u202c \u200b \ufeff \ufffd \ufffe \uffff'],
    ['text that only looks like NUL', '\\u0000 %00 \\0'],
  ])('accepts %s', (_label, value) => {
    expect(isStorableText(value)).toBe(true);
  });

  it.each([
    ['NUL', '\u0000'],
    ['NUL inside text', 'Acme\u0000Coffee'],
    ['a high surrogate at the end', 'Acme\ud800'],
    ['a high surrogate before a letter', '\udbffA'],
    ['a low surrogate at the start', '\udc00Acme'],
    ['a low surrogate after a letter', 'A\udfff'],
    ['a pair in the wrong order', '\udc00\ud800'],
    ['half of an emoji', '😀'.slice(0, 1)],
  ])('refuses %s', (_label, value) => {
    expect(isStorableText(value)).toBe(false);
  });
});

describe('unstorablePaths', () => {
  it('names every unstorable string in document order, as zod names paths', () => {
    const input = {
      name: 'fine',
      brand: 'bad\u0000',
      part1Json: { a: 'ok', b: '\ud800' },
      list: ['ok', ['\udc00', 'ok'], { deep: 'x\u0000' }],
      n: 1,
      nothing: null,
      flag: true,
    };
    expect(unstorablePaths(input)).toEqual([['brand'], ['part1Json', 'b'], ['list', 1, 0], ['list', 2, 'deep']]);
  });

  it('checks a bare string (a body that is only a string)', () => {
    expect(unstorablePaths('\u0000')).toEqual([[]]);
    expect(unstorablePaths('ok')).toEqual([]);
    expect(unstorablePaths(undefined)).toEqual([]);
  });

  it('ignores member names: unknown keys are dropped by the schemas', () => {
    expect(unstorablePaths({ 'a\u0000': 'ok', '\ud800': 1 })).toEqual([]);
  });

  it('walks a body nested 200,000 levels deep without overflowing the stack', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const [path] = unstorablePaths(deep);
    expect(path).toHaveLength(200_000);
  });
});

describe('parse', () => {
  const schema = z.object({
    name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required'),
    website: z.url({ error: 'Must be a valid URL' }),
  });
  const refusal = (input: unknown) => {
    try {
      parse(schema, input);
    } catch (err) {
      if (err instanceof DomainError) return { status: err.status, message: err.message, errors: err.errors };
      throw err;
    }
    throw new Error('accepted');
  };

  it('answers as before for input without such characters', () => {
    expect(parse(schema, { name: ' Jane ', website: 'https://a.example' })).toEqual({ name: 'Jane', website: 'https://a.example' });
    expect(refusal({ website: 'nope' })).toEqual({
      status: 400,
      message: 'Name is required',
      errors: { name: 'Name is required', website: 'Must be a valid URL' },
    });
  });

  it('refuses unstorable text first, in place of what the schema says about that field, keeping the others', () => {
    expect(refusal({ name: 'Jane', website: 'https://a.example/\u0000' })).toEqual({
      status: 400,
      message: UNSTORABLE_TEXT_MESSAGE,
      errors: { website: UNSTORABLE_TEXT_MESSAGE },
    });
    expect(refusal({ name: '', website: 'nope\ud800' })).toEqual({
      status: 400,
      message: UNSTORABLE_TEXT_MESSAGE,
      errors: { website: UNSTORABLE_TEXT_MESSAGE, name: 'Name is required' },
    });
  });

  it('refuses unstorable text in a member the schema would drop', () => {
    expect(refusal({ name: 'Jane', website: 'https://a.example', extra: '\u0000' })).toMatchObject({
      errors: { extra: UNSTORABLE_TEXT_MESSAGE },
    });
  });
});
