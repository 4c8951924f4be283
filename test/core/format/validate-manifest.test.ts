import { describe, expect, it } from 'vitest';
import { isManifest, manifestProblems, type SchemaProblem } from '@aso-registry/core/format/validate-manifest';
import type { Manifest } from '@aso-registry/core/format/types';

const HASH = `sha256-${'A'.repeat(43)}=`;

function manifest(): Manifest {
  return {
    schema: 'aso/object/v0.1',
    id: 'red-chair',
    version: '1.0.0',
    name: 'Red chair',
    description: '',
    tags: ['chair'],
    createdAt: '2025-01-01T00:00:00Z',
    provenance: {},
    representations: [
      { id: 'mesh', type: 'mesh', format: 'glb', mediaType: 'model/gltf-binary', url: 'https://registry.test/m.glb', byteLength: 0, hash: HASH },
    ],
  };
}

/** The problems of a manifest after `edit`. */
function problemsAfter(edit: (m: Record<string, any>) => void): SchemaProblem[] {
  const m = manifest() as unknown as Record<string, any>;
  edit(m);
  return manifestProblems(m);
}

const ID_PATTERN = 'must match ^[a-z0-9][a-z0-9._-]*[a-z0-9]$';
const HASH_PATTERN = 'must match ^sha256-[A-Za-z0-9+/]{43}=$';
const notSemver = (v: string): string => `"${v}" is not a Semantic Versioning 2.0.0 version (MAJOR.MINOR.PATCH[-prerelease][+build])`;

describe('manifestProblems', () => {
  it('accepts a complete manifest, optional fields and preview included', () => {
    expect(manifestProblems(manifest())).toEqual([]);
    const full = { ...manifest(), license: 'CC0-1.0', generator: 'test', preview: { ...manifest().representations[0]!, id: 'preview' } };
    expect(manifestProblems(full)).toEqual([]);
    expect(isManifest(full)).toBe(true);
  });

  it('refuses anything that is not an object', () => {
    for (const v of [null, [], 'x', 3]) expect(manifestProblems(v)).toEqual([{ pointer: '', message: 'must be object' }]);
    expect(isManifest(null)).toBe(false);
  });

  describe('id: 3 to 80 characters of the pattern', () => {
    it.each([
      [2, [{ pointer: '/id', message: 'must NOT have fewer than 3 characters' }]],
      [3, []],
      [80, []],
      [81, [{ pointer: '/id', message: 'must NOT have more than 80 characters' }]],
    ])('%i characters', (n, expected) => {
      expect(problemsAfter((m) => (m.id = 'a'.repeat(n as number)))).toEqual(expected);
    });

    it.each(['-abc', 'abc-', 'Abc', 'a b', 'a/b', '.ab'])('"%s" does not match the pattern', (id) => {
      expect(problemsAfter((m) => (m.id = id))).toEqual([{ pointer: '/id', message: ID_PATTERN }]);
    });

    it.each(['a.b', 'a_b', 'a-b', '0x1', 'chair.v2_final-x'])('"%s" matches the pattern', (id) => {
      expect(problemsAfter((m) => (m.id = id))).toEqual([]);
    });

    it('must be a string', () => {
      expect(problemsAfter((m) => (m.id = 42))).toEqual([{ pointer: '/id', message: 'must be string' }]);
    });
  });

  describe('version: the strings listed at semver.org', () => {
    const valid = [
      '0.0.4', '1.2.3', '10.20.30', '1.1.2-prerelease+meta', '1.1.2+meta', '1.1.2+meta-valid', '1.0.0-alpha',
      '1.0.0-beta', '1.0.0-alpha.beta', '1.0.0-alpha.beta.1', '1.0.0-alpha.1', '1.0.0-alpha0.valid',
      '1.0.0-alpha.0valid', '1.0.0-alpha-a.b-c-somethinglong+build.1-aef.1-its-okay', '1.0.0-rc.1+build.1',
      '2.0.0-rc.1+build.123', '1.2.3-beta', '10.2.3-DEV-SNAPSHOT', '1.2.3-SNAPSHOT-123', '1.0.0', '2.0.0', '1.1.7',
      '2.0.0+build.1848', '2.0.1-alpha.1227', '1.0.0-alpha+beta', '1.2.3----RC-SNAPSHOT.12.9.1--.12+788',
      '1.2.3----R-S.12.9.1--.12+meta', '1.2.3----RC-SNAPSHOT.12.9.1--.12', '1.0.0+0.build.1-rc.10000aaa-kk-0.1',
      '1.0.0-0A.is.legal',
    ];
    const invalid = [
      '1', '1.2', '1.2.3-0123', '1.2.3-0123.0123', '1.1.2+.123', '+invalid', '-invalid', '-invalid+invalid',
      '-invalid.01', 'alpha', 'alpha.beta', 'alpha.beta.1', 'alpha.1', 'alpha+beta', 'alpha_beta', 'alpha.',
      'alpha..', 'beta', '1.0.0-alpha_beta', '-alpha.', '1.0.0-alpha..', '1.0.0-alpha..1', '1.0.0-alpha...1',
      '1.0.0-alpha....1', '1.0.0-alpha.....1', '1.0.0-alpha......1', '1.0.0-alpha.......1', '01.1.1', '1.01.1',
      '1.1.01', '1.2.3.DEV', '1.2-SNAPSHOT', '1.2.31.2.3----RC-SNAPSHOT.12.09.1--..12+788', '1.2-RC-SNAPSHOT',
      '-1.0.3-gamma+b7718', '+justmeta', '9.8.7+meta+meta', '9.8.7-whatever+meta+meta',
      '99999999999999999999999.999999999999999999.99999999999999999----RC-SNAPSHOT.12.09.1--------------------------------..12',
    ];

    it.each(valid)('accepts %s', (v) => {
      expect(problemsAfter((m) => (m.version = v))).toEqual([]);
    });

    it.each(invalid)('refuses %s', (v) => {
      expect(problemsAfter((m) => (m.version = v))).toEqual([{ pointer: '/version', message: notSemver(v) }]);
    });

    // semver.org lists this as valid, but numbers above Number.MAX_SAFE_INTEGER cannot be ordered exactly
    // (node-semver refuses them too), so the registry refuses them with a message that says why.
    it('refuses 99999999999999999999999.999999999999999999.99999999999999999 as too large to order', () => {
      const v = '99999999999999999999999.999999999999999999.99999999999999999';
      expect(problemsAfter((m) => (m.version = v))).toEqual([
        { pointer: '/version', message: `"${v}" has a numeric part above 9007199254740991, which versions here cannot order` },
      ]);
    });

    it('names the exact form of a version that only loosely parses', () => {
      expect(problemsAfter((m) => (m.version = 'v1.2.3'))).toEqual([
        { pointer: '/version', message: '"v1.2.3" is not exactly a Semantic Versioning 2.0.0 version (did you mean "1.2.3"?)' },
      ]);
    });
  });

  describe('createdAt: RFC 3339 with an offset or Z', () => {
    it.each(['2025-01-01T00:00:00Z', '2025-01-01T00:00:00+02:00', '2025-01-01T00:00:00-05:30', '2025-01-01T00:00:00.123Z'])('accepts %s', (t) => {
      expect(problemsAfter((m) => (m.createdAt = t))).toEqual([]);
    });

    it.each(['2025-01-01T00:00:00', '2025-01-01T00:00:00.123', '2025-01-01', '2025-13-01T00:00:00Z', 'yesterday'])('refuses %s', (t) => {
      expect(problemsAfter((m) => (m.createdAt = t))).toEqual([
        { pointer: '/createdAt', message: 'must be an RFC 3339 date-time with an offset or Z' },
      ]);
    });
  });

  describe('hash: exactly 43 base64 characters between sha256- and =', () => {
    it.each([
      [42, [{ pointer: '/representations/0/hash', message: HASH_PATTERN }]],
      [43, []],
      [44, [{ pointer: '/representations/0/hash', message: HASH_PATTERN }]],
    ])('%i characters', (n, expected) => {
      expect(problemsAfter((m) => (m.representations[0].hash = `sha256-${'A'.repeat(n as number)}=`))).toEqual(expected);
    });

    it.each([`sha256-${'A'.repeat(43)}`, `sha384-${'A'.repeat(43)}=`, `sha256-${'-'.repeat(43)}=`])('refuses %s', (h) => {
      expect(problemsAfter((m) => (m.representations[0].hash = h))).toEqual([{ pointer: '/representations/0/hash', message: HASH_PATTERN }]);
    });
  });

  it('schema must be the constant', () => {
    expect(problemsAfter((m) => (m.schema = 'aso/object/v0.2'))).toEqual([{ pointer: '/schema', message: 'must be "aso/object/v0.1"' }]);
  });

  it('names every missing required property', () => {
    const required = ['schema', 'id', 'version', 'name', 'description', 'tags', 'createdAt', 'provenance', 'representations'];
    expect(problemsAfter((m) => required.forEach((k) => delete m[k]))).toEqual(
      required.map((k) => ({ pointer: `/${k}`, message: 'is required but missing' })),
    );
  });

  it('refuses extra properties, on the manifest and on a representation', () => {
    expect(problemsAfter((m) => (m.extra = 1))).toEqual([{ pointer: '/extra', message: 'is not an allowed property' }]);
    expect(problemsAfter((m) => (m.representations[0].size = 1))).toEqual([
      { pointer: '/representations/0/size', message: 'is not an allowed property' },
    ]);
  });

  it('name: at least 1 character', () => {
    expect(problemsAfter((m) => (m.name = ''))).toEqual([{ pointer: '/name', message: 'must NOT have fewer than 1 characters' }]);
    expect(problemsAfter((m) => (m.name = 'x'))).toEqual([]);
  });

  it('description: any string', () => {
    expect(problemsAfter((m) => (m.description = ''))).toEqual([]);
    expect(problemsAfter((m) => (m.description = 3))).toEqual([{ pointer: '/description', message: 'must be string' }]);
  });

  it('tags: strings, each once', () => {
    expect(problemsAfter((m) => (m.tags = []))).toEqual([]);
    expect(problemsAfter((m) => (m.tags = ['a', 'b', 'a']))).toEqual([
      { pointer: '/tags', message: 'must not repeat items (items 2 and 0 are equal)' },
    ]);
    expect(problemsAfter((m) => (m.tags = [1]))).toEqual([{ pointer: '/tags/0', message: 'must be string' }]);
  });

  it('license and generator: strings when present', () => {
    expect(problemsAfter((m) => (m.license = 3))).toEqual([{ pointer: '/license', message: 'must be string' }]);
    expect(problemsAfter((m) => (m.generator = false))).toEqual([{ pointer: '/generator', message: 'must be string' }]);
  });

  it('provenance: an object of any members', () => {
    expect(problemsAfter((m) => (m.provenance = { anything: [1, { deep: true }] }))).toEqual([]);
    expect(problemsAfter((m) => (m.provenance = []))).toEqual([{ pointer: '/provenance', message: 'must be object' }]);
  });

  it('representations: at least 1 item', () => {
    expect(problemsAfter((m) => (m.representations = []))).toEqual([
      { pointer: '/representations', message: 'must NOT have fewer than 1 items' },
    ]);
  });

  it('byteLength: an integer of at least 0', () => {
    expect(problemsAfter((m) => (m.representations[0].byteLength = 0))).toEqual([]);
    expect(problemsAfter((m) => (m.representations[0].byteLength = -1))).toEqual([
      { pointer: '/representations/0/byteLength', message: 'must be >= 0' },
    ]);
    expect(problemsAfter((m) => (m.representations[0].byteLength = 1.5))).toEqual([
      { pointer: '/representations/0/byteLength', message: 'must be integer' },
    ]);
  });

  it('representation strings: at least 1 character', () => {
    for (const key of ['id', 'type', 'format', 'mediaType']) {
      expect(problemsAfter((m) => (m.representations[0][key] = ''))).toEqual([
        { pointer: `/representations/0/${key}`, message: 'must NOT have fewer than 1 characters' },
      ]);
    }
  });

  it('url: a URI', () => {
    expect(problemsAfter((m) => (m.representations[0].url = 'not a url'))).toEqual([
      { pointer: '/representations/0/url', message: 'must be a valid uri' },
    ]);
  });

  it('preview: the shape of a representation', () => {
    expect(problemsAfter((m) => (m.preview = { id: 'p', type: 'image', format: 'png', mediaType: 'image/png', url: 'https://x.test/p.png', byteLength: 1 }))).toEqual([
      { pointer: '/preview/hash', message: 'is required but missing' },
    ]);
  });
});
