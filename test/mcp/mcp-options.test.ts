import { describe, expect, it } from 'vitest';
import { parseMcpArgs, UsageError } from '../../src/mcp/mcp-options.ts';

const fails = (args: string[]): string => {
  try {
    parseMcpArgs(args);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`${args.join(' ')} was accepted`);
};

describe('parseMcpArgs', () => {
  it('speaks stdio by default, and HTTP on 127.0.0.1 and a free port with --http', () => {
    expect(parseMcpArgs(['--site', 'dist'])).toEqual({ site: 'dist', http: null, logKey: null });
    expect(parseMcpArgs(['--site', 'https://r.example', '--http'])).toEqual({ site: 'https://r.example', http: { host: '127.0.0.1', port: 0 }, logKey: null });
    expect(parseMcpArgs(['--site', 'dist', '--http', '--port', '8765', '--host', '::1', '--log-key', 'registry/log.pub'])).toEqual({
      site: 'dist',
      http: { host: '::1', port: 8765 },
      logKey: 'registry/log.pub',
    });
    expect(parseMcpArgs(['--help'])).toBe('help');
  });

  it('names the flag and what is wrong with it', () => {
    expect(fails([])).toBe('--site is required: the URL of a registry site, or a built dist/ folder');
    expect(fails(['--site', 'dist', '--port', '80'])).toBe('--port is for --http; without --http the server speaks stdio');
    expect(fails(['--site', 'dist', '--host', 'localhost'])).toBe('--host is for --http; without --http the server speaks stdio');
    expect(fails(['--site', 'dist', '--http', '--port', '70000'])).toBe('--port must be a port number (0-65535), not "70000"');
    expect(fails(['--site', 'dist', '--http', '--port=-1'])).toBe('--port must be a port number (0-65535), not "-1"');
    expect(fails(['--site', 'dist', '--http', '--port', '1.5'])).toBe('--port must be a port number (0-65535), not "1.5"');
    expect(fails(['--site', 'dist', '--log-key', ' '])).toMatch(/^--log-key must be a verifier key/);
    expect(fails(['--site', 'dist', '--stdio'])).toMatch(/Unknown option '--stdio'/);
    expect(fails(['--site', 'dist', 'extra'])).toMatch(/Unexpected argument 'extra'/);
  });
});
