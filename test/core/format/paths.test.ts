import { describe, expect, it } from 'vitest';
import {
  agentPath,
  apiPaths,
  encodePath,
  localHref,
  manifestPath,
  objectPagePath,
  representationPath,
  representationUrl,
  siteUrl,
  toOrigin,
  versionDir,
  versionPagePath,
} from '@aso-registry/core/format/paths';

describe('paths', () => {
  it('lays out the registry tree of the design', () => {
    expect(versionDir('chair', '1.0.0')).toBe('objects/chair/versions/1.0.0');
    expect(manifestPath('chair', '1.0.0')).toBe('objects/chair/versions/1.0.0/aso.object.json');
    expect(agentPath('chair', '1.0.0')).toBe('objects/chair/versions/1.0.0/agent.json');
    expect(representationPath('chair', '1.0.0', 'mesh', 'glb')).toBe('objects/chair/versions/1.0.0/representations/mesh.glb');
    expect(versionPagePath('chair', '1.0.0')).toBe('objects/chair/versions/1.0.0/');
    expect(objectPagePath('chair')).toBe('objects/chair/');
  });

  it('builds the url a representation must declare, with or without a trailing slash', () => {
    const url = 'https://registry.test/objects/chair/versions/1.0.0/representations/mesh.glb';
    expect(representationUrl('https://registry.test', 'chair', '1.0.0', 'mesh', 'glb')).toBe(url);
    expect(representationUrl('https://registry.test/', 'chair', '1.0.0', 'mesh', 'glb')).toBe(url);
  });

  it('keeps + of build metadata and encodes what a URL cannot carry', () => {
    expect(representationUrl('https://r.test', 'chair', '1.0.0+b.1', 'mesh', 'glb')).toBe(
      'https://r.test/objects/chair/versions/1.0.0+b.1/representations/mesh.glb',
    );
    expect(encodePath('a b/c#d/e?f')).toBe('a%20b/c%23d/e%3Ff');
    // What `encodeURIComponent` keeps is kept as it is; anything else is encoded, one character among plain ones too.
    const kept = "objects/A-z_0.9!~*'()/versions/1.0.0+b.1/";
    expect(encodePath(kept)).toBe(kept);
    for (const c of ['%', '&', '=', ':', '@', ',', ';', '$', '[', '"', 'é', '\\', '^', '`']) {
      expect(encodePath(`a/b${c}c`)).toBe(`a/b${encodeURIComponent(c)}c`);
    }
  });

  it('places the API under api/v1', () => {
    expect(apiPaths.index()).toBe('api/v1/index.json');
    expect(apiPaths.objects()).toBe('api/v1/objects.json');
    expect(apiPaths.object('chair')).toBe('api/v1/objects/chair.json');
    expect(apiPaths.version('chair', '1.0.0')).toBe('api/v1/objects/chair/versions/1.0.0.json');
    expect(apiPaths.worlds()).toBe('api/v1/worlds.json');
    expect(siteUrl('https://r.test/', 'api/v1/index.json')).toBe('https://r.test/api/v1/index.json');
  });

  it('moves registry URLs to another origin and leaves others alone', () => {
    expect(toOrigin('https://r.test/objects/a/x.glb?v=1', 'https://r.test', 'http://127.0.0.1:4321')).toBe('http://127.0.0.1:4321/objects/a/x.glb?v=1');
    expect(toOrigin('https://cdn.test/x.glb', 'https://r.test', 'http://127.0.0.1:4321')).toBe('https://cdn.test/x.glb');
  });

  it('turns registry URLs into local links under a base', () => {
    expect(localHref('https://r.test/objects/a/', 'https://r.test')).toBe('/objects/a/');
    expect(localHref('https://r.test/objects/a/', 'https://r.test/', '/preview')).toBe('/preview/objects/a/');
    expect(localHref('https://elsewhere.test/x', 'https://r.test')).toBe('https://elsewhere.test/x');
  });
});
