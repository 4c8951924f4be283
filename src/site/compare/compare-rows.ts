/** The rows of a comparison written into a table body, as text only: no value from a manifest is read as markup. */
import type { ComparisonRow } from '@aso-registry/core/documents/version-comparison';

/**
 * Replaces the rows of `body` with one row per comparison row: label, both values, and what changed. Each value cell
 * names its version (`data-version`), which a narrow screen shows above it.
 */
export function fillRows(body: HTMLTableSectionElement, rows: readonly ComparisonRow[], versions: { a: string; b: string }): void {
  const doc = body.ownerDocument;
  const cell = (tag: 'th' | 'td', text: string, className: string): HTMLElement => {
    const el = doc.createElement(tag);
    el.className = className;
    el.textContent = text;
    return el;
  };
  body.replaceChildren(
    ...rows.map((row) => {
      const tr = doc.createElement('tr');
      tr.dataset.key = row.key;
      tr.dataset.changed = String(row.changed);
      const label = cell('th', row.label, 'label');
      label.setAttribute('scope', 'row');
      const change = cell('td', row.changed ? '' : 'Same', 'change');
      if (row.changed) {
        const badge = doc.createElement('strong');
        badge.className = 'badge';
        badge.textContent = row.delta ?? 'Changed';
        change.append(badge);
      }
      const value = (side: 'a' | 'b'): HTMLElement => {
        const td = cell('td', row[side], 'value');
        td.dataset.version = versions[side];
        return td;
      };
      tr.append(label, value('a'), value('b'), change);
      return tr;
    }),
  );
}
