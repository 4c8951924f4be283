import { describe, expect, it } from 'vitest';
import { licenseRef } from '@aso-registry/core/format/license';

describe('license', () => {
  it('links SPDX identifiers to their SPDX page, exactly as the list spells them', () => {
    expect(licenseRef('CC-BY-4.0')).toEqual({ kind: 'spdx', id: 'CC-BY-4.0', url: 'https://spdx.org/licenses/CC-BY-4.0.html' });
    expect(licenseRef(' MIT ')).toEqual({ kind: 'spdx', id: 'MIT', url: 'https://spdx.org/licenses/MIT.html' });
    expect(licenseRef('mit')).toEqual({ kind: 'text', text: 'mit' });
  });

  it('keeps a URL as a URL and anything else as text', () => {
    expect(licenseRef('https://example.org/terms')).toEqual({ kind: 'url', url: 'https://example.org/terms' });
    expect(licenseRef('MIT OR Apache-2.0')).toEqual({ kind: 'text', text: 'MIT OR Apache-2.0' });
    expect(licenseRef('All rights reserved')).toEqual({ kind: 'text', text: 'All rights reserved' });
    expect(licenseRef('javascript:alert(1)')).toEqual({ kind: 'text', text: 'javascript:alert(1)' });
  });
});
