import { describe, expect, it } from 'vitest';
import { allowedPlaces, rebindingProblem } from '../../src/mcp/rebinding-guard.ts';

describe('rebindingProblem', () => {
  it('accepts the loopback names with the port, and an Origin that is one of them', () => {
    const allowed = allowedPlaces('127.0.0.1', 8765);
    for (const host of ['127.0.0.1:8765', 'localhost:8765', 'LOCALHOST:8765', '[::1]:8765']) expect(rebindingProblem({ host }, allowed), host).toBeNull();
    expect(rebindingProblem({ host: 'localhost:8765', origin: 'http://127.0.0.1:8765' }, allowed)).toBeNull();
  });

  it('refuses another name, another port, no Host, and an Origin that is not this server', () => {
    const allowed = allowedPlaces('127.0.0.1', 8765);
    expect(rebindingProblem({ host: 'attacker.example:8765' }, allowed)).toBe(
      'Host "attacker.example:8765" is not this server (allowed: 127.0.0.1:8765, localhost:8765, [::1]:8765)',
    );
    expect(rebindingProblem({ host: 'localhost:8766' }, allowed)).toMatch(/^Host "localhost:8766" is not this server/);
    expect(rebindingProblem({ host: 'localhost' }, allowed)).toMatch(/is not this server/);
    expect(rebindingProblem({}, allowed)).toBe('the request has no Host header');
    expect(rebindingProblem({ host: 'localhost:8765', origin: 'http://attacker.example' }, allowed)).toBe('Origin "http://attacker.example" is not this server');
    expect(rebindingProblem({ host: 'localhost:8765', origin: 'null' }, allowed)).toBe('Origin "null" is not this server');
  });

  it('adds the bound host, brackets an IPv6 address, leaves out a wildcard, and takes port 80 with or without it', () => {
    expect([...allowedPlaces('mcp.internal', 9000).hosts]).toEqual(['127.0.0.1:9000', 'localhost:9000', '[::1]:9000', 'mcp.internal:9000']);
    expect([...allowedPlaces('::1', 9000).hosts]).toEqual(['127.0.0.1:9000', 'localhost:9000', '[::1]:9000']);
    expect([...allowedPlaces('0.0.0.0', 9000).hosts]).toEqual(['127.0.0.1:9000', 'localhost:9000', '[::1]:9000']);
    const web = allowedPlaces('127.0.0.1', 80);
    expect(rebindingProblem({ host: 'localhost', origin: 'http://localhost' }, web)).toBeNull();
    expect(rebindingProblem({ host: 'localhost:80' }, web)).toBeNull();
  });
});
