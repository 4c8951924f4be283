import { describe, expect, it } from 'vitest';
import { worldProblems } from '../../src/registry/check-world.ts';

const published = new Set(['chair@1.0.0', 'chair@1.1.0', 'lamp@2.0.0']);
const exists = (id: string, version: string) => published.has(`${id}@${version}`);

describe('worldProblems', () => {
  it('accepts a world named after its file that lists published versions', () => {
    const world = { id: 'reading-room', name: 'Reading room', objects: [{ id: 'chair', version: '1.0.0' }, { id: 'lamp', version: '2.0.0' }] };
    expect(worldProblems(world, 'reading-room', exists)).toEqual([]);
    expect(worldProblems({ ...world, objects: [] }, 'reading-room', exists)).toEqual([]);
  });

  it('refuses an id that differs from the file name', () => {
    expect(worldProblems({ id: 'hall', name: 'Hall', objects: [] }, 'reading-room', exists)).toEqual([
      { pointer: '/id', message: 'must equal the file name: expected "reading-room", actual "hall"' },
    ]);
  });

  it('names an entry that is not published and one listed twice, by index', () => {
    const world = {
      id: 'room',
      name: 'Room',
      objects: [
        { id: 'chair', version: '1.0.0' },
        { id: 'chair', version: '9.9.9' },
        { id: 'chair', version: '1.0.0' },
        { id: 'chair', version: '1.1.0' },
        { id: 'chair', version: '9.9.9' },
      ],
    };
    expect(worldProblems(world, 'room', exists)).toEqual([
      { pointer: '/objects/1', message: 'references chair@9.9.9, which is not in the registry' },
      { pointer: '/objects/2', message: 'lists chair@1.0.0 again (already at /objects/0)' },
      { pointer: '/objects/4', message: 'lists chair@9.9.9 again (already at /objects/1)' },
    ]);
  });

  it('says what is wrong with the shape', () => {
    const problems = worldProblems({ id: 'Bad Id', name: '', objects: ['chair@1.0.0', { id: 'chair' }], theme: 'dark' }, 'Bad Id', exists);
    expect(problems).toEqual([
      { pointer: '/theme', message: 'is not an allowed property' },
      { pointer: '/id', message: 'must match ^[a-z0-9][a-z0-9._-]*[a-z0-9]$' },
      { pointer: '/name', message: 'must not be empty' },
      { pointer: '/objects/0', message: 'must be an object { "id", "version" }' },
      { pointer: '/objects/1/version', message: 'is required but missing' },
    ]);
    expect(worldProblems('room', 'room', exists)).toEqual([{ pointer: '', message: 'must be a JSON object' }]);
  });
});
