/** The `date-time` and `uri` formats against ajv-formats' full mode, on readable cases and on generated ones. */
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { describe, expect, it } from 'vitest';
import { isDateTimeFormat, isUriFormat } from '@aso-registry/core/format/schema-formats';

const ajvFormat = (name: 'date-time' | 'uri'): ((s: string) => boolean) => {
  const f = fullFormats[name] as ((s: string) => boolean) | { validate: (s: string) => boolean };
  return typeof f === 'function' ? f : f.validate;
};

/** Every string made of one item of each list, in order. */
const combine = (...lists: string[][]): string[] => lists.reduce<string[]>((acc, list) => acc.flatMap((a) => list.map((b) => a + b)), ['']);

/** Strings that differ from ajv-formats' answer, with both answers. */
function disagreements(ours: (s: string) => boolean, theirs: (s: string) => boolean, inputs: string[]): string[] {
  return inputs.filter((s) => ours(s) !== theirs(s)).map((s) => `${JSON.stringify(s)}: ours ${ours(s)}, ajv-formats ${theirs(s)}`);
}

describe('date-time', () => {
  it('takes an RFC 3339 date-time of a real day, with its offset', () => {
    for (const ok of ['2025-02-14T10:02:11Z', '2024-02-29T00:00:00.5+01:00', '2025-01-01 12:00:00z', '1998-12-31T23:59:60Z', '1998-12-31T15:59:60-08:00', '2025-01-01T00:00:00+0100']) {
      expect(isDateTimeFormat(ok), ok).toBe(true);
    }
    for (const bad of ['2025-02-14T10:02:11', '2025-02-29T00:00:00Z', '2100-02-29T00:00:00Z', '2025-13-01T00:00:00Z', '2025-01-01T24:00:00Z', '2025-01-01T12:00:60Z', '2025-01-01', '2025-01-01T00:00:00+24:00', '2025-1-01T00:00:00Z']) {
      expect(isDateTimeFormat(bad), bad).toBe(false);
    }
  });

  it('agrees with ajv-formats on every combination of dates, times and offsets', () => {
    const inputs = combine(
      ['2024-02-29', '2023-02-29', '2000-02-29', '1900-02-29', '2025-04-31', '2025-12-31', '2025-00-10', '2025-01-00', '99999-01-01', '2025-01-1', ''],
      ['T', 't', ' ', 'X', '  '],
      ['00:00:00', '23:59:59', '23:59:60', '23:59:60.999', '23:59:61', '00:00:60', '00:59:60', '22:59:60', '24:00:00', '12:60:00', '12:00:00.123456', '1:00:00', '12:00'],
      ['Z', 'z', '+00:00', '-08:00', '+08:00', '+01', '+0130', '+00:01', '+24:00', '+23:60', '-00:59', '+01:', ''],
    );
    expect(inputs.length).toBeGreaterThan(5_000);
    expect(disagreements(isDateTimeFormat, ajvFormat('date-time'), inputs)).toEqual([]);
  });
});

describe('uri', () => {
  it('takes an absolute URI and refuses a relative reference or a character out of place', () => {
    for (const ok of ['https://example.org/models/chair.glb', 'urn:isbn:0451450523', 'mailto:a@b.c', 'http://[::1]:8080/', 'http://[v1.x]/', 'file:///tmp/x', 'a://']) {
      expect(isUriFormat(ok), ok).toBe(true);
    }
    for (const bad of ['models/chair.glb', '/models/chair.glb', 'https://example.org/a b', 'https://example.org/%zz', 'http://[::1::2]/', 'http://[1:2:3:4:5:6:7:8:9]/', '1http://x', 'urn:', 'https://example.org/é']) {
      expect(isUriFormat(bad), bad).toBe(false);
    }
  });

  it('agrees with ajv-formats on every combination of schemes, authorities, paths, queries and fragments', () => {
    const hosts = [
      'example.org', '', '127.0.0.1', '256.1.1.1', '[::1]', '[::]', '[1::]', '[1:2:3:4:5:6:7:8]', '[1:2:3:4:5:6:7::]', '[::2:3:4:5:6:7:8]',
      '[1:2:3:4:5:6:7:8:9]', '[1:2:3:4:5:6:7:8::]', '[1::3:4:5:6:7:8:9]', '[1:2:3:4:5:6:7]', '[1::2::3]', '[::ffff:1.2.3.4]', '[1:2:3:4:5:6:1.2.3.4]', '[1:2:3:4:5:6:7:1.2.3.4]', '[::256.1.1.1]', '[::01.2.3.4]',
      '[1.2.3.4]', '[:1::]', '[12345::]', '[G::]', '[v1.abc:]', '[V7f.x]', '[v.x]', '[v1.]', '[]', '[::1', 'ex%41mple', 'ex%4', 'a b',
    ];
    const inputs = [
      ...combine(['https:', 'a+b.c-d:', '1a:', ''], ['//', '/', '///'], ['', 'user:pw@', 'u%20@', 'a@b@'], hosts, ['', ':8080', ':', ':x'], ['', '/x.glb', '/a//b']),
      ...combine(['urn:', 'mailto:', 'x:'], ['', 'a', 'a/b', 'a:b', '@', '%41', '%4', 'é', '<', ' ', '[', '\\'], ['', '?q=1', '?a/b?c', '?%', '?#'], ['', '#f', '#/f?', '#a#b', '#%20']),
    ];
    expect(inputs.length).toBeGreaterThan(10_000);
    expect(disagreements(isUriFormat, ajvFormat('uri'), inputs)).toEqual([]);
  });
});
