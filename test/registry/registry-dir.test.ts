import { describe, expect, it } from 'vitest';
import { cacheDir, registryDir } from '../../src/registry/registry-dir.ts';

describe('registryDir', () => {
  it('is ASO_REGISTRY_DIR resolved against the working folder, else ./registry', () => {
    expect(registryDir({}, '/srv/checkout')).toBe('/srv/checkout/registry');
    expect(registryDir({ ASO_REGISTRY_DIR: ' data/reg ' }, '/srv/checkout')).toBe('/srv/checkout/data/reg');
    expect(registryDir({ ASO_REGISTRY_DIR: '/srv/registry' }, '/srv/checkout')).toBe('/srv/registry');
    expect(registryDir({ ASO_REGISTRY_DIR: '' }, '/srv/checkout')).toBe('/srv/checkout/registry');
  });
});

describe('cacheDir', () => {
  it('is ASO_CACHE_DIR resolved against the working folder, else the cache folder of node_modules', () => {
    expect(cacheDir({}, '/srv/checkout')).toBe('/srv/checkout/node_modules/.cache/aso-registry');
    expect(cacheDir({ ASO_CACHE_DIR: '/tmp/c' }, '/srv/checkout')).toBe('/tmp/c');
    expect(cacheDir({ ASO_CACHE_DIR: '  ' }, '/srv/checkout')).toBe('/srv/checkout/node_modules/.cache/aso-registry');
  });
});
