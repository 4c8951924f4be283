import { describe, expect, it } from 'vitest';
import { DEFAULT_REGISTRY_URL, registryUrl } from '../../src/registry/registry-url.ts';

describe('registryUrl', () => {
  it('reads REGISTRY_URL without trailing slashes, keeping a path', () => {
    expect(registryUrl({ REGISTRY_URL: 'https://models.example.com/' })).toBe('https://models.example.com');
    expect(registryUrl({ REGISTRY_URL: ' https://example.com/registry// ' })).toBe('https://example.com/registry');
    expect(registryUrl({ REGISTRY_URL: 'http://127.0.0.1:4321' })).toBe('http://127.0.0.1:4321');
  });

  it('falls back to the default when unset or blank', () => {
    expect(registryUrl({})).toBe(DEFAULT_REGISTRY_URL);
    expect(registryUrl({ REGISTRY_URL: '  ' })).toBe(DEFAULT_REGISTRY_URL);
  });

  it('refuses what is not an absolute http(s) URL, quoting it', () => {
    expect(() => registryUrl({ REGISTRY_URL: 'models.example.com' })).toThrow('REGISTRY_URL: "models.example.com" is not an absolute URL');
    expect(() => registryUrl({ REGISTRY_URL: 'ftp://models.example.com' })).toThrow('REGISTRY_URL: "ftp://models.example.com" must use http or https');
  });
});
