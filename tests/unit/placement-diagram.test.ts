import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DIAGRAM_FILE, withDiagram } from '../../scripts/life-diagram';
import { LIFE_STATE_IDS, TRANSITIONS } from '../../src/shared/placement-machine';

/** Issue 58: docs/ARCHITECTURE.md shows the placement's state diagram, made from the table. */
describe('the placement state diagram', () => {
  it('is the one the transition table makes', () => {
    const text = readFileSync(DIAGRAM_FILE, 'utf8');
    const expected = withDiagram(text);
    if (text !== expected) {
      expect.fail(
        `${DIAGRAM_FILE}: the placement state diagram drifted from src/shared/placement-machine.ts. Rewrite it with \`npx tsx scripts/life-diagram.ts\` and commit the file.`,
      );
    }
  });

  it('draws every state and every transition’s event', () => {
    const text = readFileSync(DIAGRAM_FILE, 'utf8');
    for (const id of LIFE_STATE_IDS) expect(text).toContain(`  ${id}: `);
    for (const t of TRANSITIONS) expect(text).toContain(`${t.event} (`);
  });
});
