import { describe, expect, it } from 'vitest';
import { linkParts } from '../../src/client/features/placements/components/conversation/linked-text';
import { timelineLine } from '../../src/client/features/placements/components/timeline/timeline-sentence';
import type { TimelineEntry } from '../../src/shared/timeline';

describe('links in a message', () => {
  it('makes http and https URLs links and leaves everything else text', () => {
    expect(linkParts('See https://example.com/a?b=1#c and http://x.test/y')).toEqual([
      { text: 'See ' },
      { text: 'https://example.com/a?b=1#c', href: 'https://example.com/a?b=1#c' },
      { text: ' and ' },
      { text: 'http://x.test/y', href: 'http://x.test/y' },
    ]);
  });

  it('never links another scheme, markup or a URL glued to a word', () => {
    for (const text of [
      'javascript:alert(1)',
      '<a href="javascript:alert(1)">x</a>',
      'data:text/html,<script>1</script>',
      'ftp://files.example.com',
      'xhttps://evil.example',
      'vbscript:msgbox',
    ]) {
      expect(
        linkParts(text).filter((p) => p.href),
        text,
      ).toEqual([]);
    }
    // markup stays text, byte for byte
    const hostile = '<img src=x onerror="alert(1)"><script>alert(2)</script>';
    expect(linkParts(hostile)).toEqual([{ text: hostile }]);
  });

  it('leaves a sentence’s punctuation out of the link but keeps a parenthesis the URL opened', () => {
    expect(linkParts('Read https://example.com/a.')).toEqual([
      { text: 'Read ' },
      { text: 'https://example.com/a', href: 'https://example.com/a' },
      { text: '.' },
    ]);
    expect(linkParts('(see https://example.com/b)')[1]).toEqual({
      text: 'https://example.com/b',
      href: 'https://example.com/b',
    });
    expect(linkParts('https://en.wikipedia.org/wiki/Foo_(bar), ok')[0]).toEqual({
      text: 'https://en.wikipedia.org/wiki/Foo_(bar)',
      href: 'https://en.wikipedia.org/wiki/Foo_(bar)',
    });
    // quotes end a URL: an attribute cannot be smuggled in
    expect(linkParts('https://a.example/"onmouseover="x')[0]).toEqual({
      text: 'https://a.example/',
      href: 'https://a.example/',
    });
  });

  it('keeps line breaks and the text around links whole', () => {
    const text = 'line one\nhttps://example.com\n\nline three';
    expect(
      linkParts(text)
        .map((p) => p.text)
        .join(''),
    ).toBe(text);
  });
});

describe('timeline sentences', () => {
  const entry = (
    kind: TimelineEntry['kind'],
    details: Record<string, unknown> = {},
    actor: TimelineEntry['actor'] = { type: 'brand', name: 'Acme' },
  ): TimelineEntry => ({
    id: '1',
    kind,
    actor,
    at: '2026-01-02T03:04:05.000Z',
    details,
  });

  it('says what happened per kind, from its details', () => {
    expect(timelineLine(entry('paid', { amount: '1250.00' })).sentence).toBe('Paid $1,250.00');
    expect(timelineLine(entry('brief_saved')).sentence).toBe('Brief started');
    expect(timelineLine(entry('brief_submitted')).sentence).toBe('Brief submitted');
    expect(timelineLine(entry('draft_attached', { round: 2 })).sentence).toBe('Draft attached (round 2)');
    expect(timelineLine(entry('edits_requested', { feedback: 'Shorter\nplease' }))).toEqual({
      sentence: 'Edits requested',
      quote: 'Shorter\nplease',
    });
    expect(timelineLine(entry('edits_completed')).sentence).toBe('Edits marked complete');
    expect(timelineLine(entry('approved')).sentence).toBe('Draft approved');
    expect(timelineLine(entry('approved', {}, { type: 'system', name: 'Byline' })).sentence).toBe(
      'Draft approved automatically',
    );
    expect(timelineLine(entry('published', { url: 'https://outlet.example/a' }))).toEqual({
      sentence: 'Published',
      link: 'https://outlet.example/a',
    });
    expect(timelineLine(entry('released', { amount: '1250.00' })).sentence).toBe('Payment released ($1,250.00)');
    expect(timelineLine(entry('refunded', { amount: '10.00', reason: 'guarantee' })).sentence).toBe(
      'Refunded $10.00: not published within the guarantee',
    );
    expect(timelineLine(entry('brief_reminder')).sentence).toBe('Reminder sent');
    expect(timelineLine(entry('brief_reminder', { day: 3 })).sentence).toBe('Reminder sent: the brief is still missing 3 days after payment');
    expect(timelineLine(entry('review_reminder', { autoApproveOn: '2026-12-02T10:00:00.000Z' })).sentence).toBe(
      'Reminder sent: the draft will be approved automatically on Dec 2, 2026',
    );
    expect(timelineLine(entry('review_reminder', { autoApproveOn: null })).sentence).toBe('Reminder sent: the draft waits for review');
    // issue 59: what happens on its own, and by when
    expect(timelineLine(entry('deadline_reminder', { deadline: 'guarantee', at: '2027-03-01T09:00:00.000Z' })).sentence).toBe(
      'Reminder sent: refunded in full unless published by Mar 1, 2027',
    );
    expect(timelineLine(entry('deadline_reminder', { deadline: 'cancellation', at: '2027-03-01T09:00:00.000Z' })).sentence).toBe(
      'Reminder sent: the cancellation is granted unless answered by Mar 1, 2027',
    );
    expect(timelineLine(entry('deadline_reminder', { deadline: 'swap' })).sentence).toBe('Reminder sent: refunded in full unless an alternative is chosen');
  });

  it('never links a non-http URL and survives missing or odd details', () => {
    expect(timelineLine(entry('published', { url: 'javascript:alert(1)' })).link).toBeUndefined();
    expect(timelineLine(entry('paid', { amount: 'lots' })).sentence).toBe('Paid');
    expect(timelineLine(entry('draft_attached', { round: 'x' })).sentence).toBe('Draft attached');
    expect(timelineLine(entry('check_failed', { problems: ['No link to the brand', 42] })).sentence).toBe(
      'Check of the live article failed: No link to the brand',
    );
  });
});
