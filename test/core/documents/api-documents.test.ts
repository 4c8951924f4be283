import { describe, expect, it } from 'vitest';
import {
  agentDocument,
  apiCatalog,
  apiIndex,
  apiLedgerCheckpoint,
  apiObject,
  apiRepresentations,
  apiVersion,
  versionSummary,
  worldsReferencing,
} from '@aso-registry/core/documents/api-documents';
import { groupObjects } from '@aso-registry/core/documents/catalog';
import type { World } from '@aso-registry/core/format/types';
import { digestOf, manifest, record, REGISTRY, rep } from '../records.ts';

const V = `${REGISTRY}/objects/chair/versions`;
const retraction = { reason: 'wrong scale', retractedAt: '2026-02-01T00:00:00Z' };

const chair = groupObjects([
  record('chair', '1.0.0', { name: 'Old chair', tags: ['old'] }),
  record('chair', '1.1.0', { name: 'Oak chair', description: 'A chair.', tags: ['wood'], createdAt: '2026-01-05T00:00:00Z', license: 'CC0-1.0' }),
  record('chair', '2.0.0-rc.1', { name: 'Next chair', createdAt: '2026-01-09T00:00:00Z' }),
])[0]!;
const lamp = groupObjects([record('lamp', '0.1.0'), record('lamp', '0.2.0', { createdAt: '2026-01-02T00:00:00Z' }, retraction)])[0]!;
const byVersion = (version: string) => chair.versions.find((v) => v.manifest.version === version)!;

describe('apiRepresentations', () => {
  it('lists representations then the preview, with role, runtimes, reports and hex digest', () => {
    const m = manifest('chair', '1.0.0', { representations: [rep('mesh', 'glb'), rep('cloud', 'ply')], preview: rep('preview', 'png') });
    const reps = apiRepresentations(m);
    expect(reps.map((r) => [r.id, r.role, r.runtimes])).toEqual([
      ['mesh', 'representation', ['browser-gltf']],
      ['cloud', 'representation', []],
      ['preview', 'preview', ['browser-image']],
    ]);
    expect(reps[0]).toMatchObject({ ...m.representations[0], sha256: digestOf('mesh').hex });
    expect(reps[1]!.reports.map((r) => r.compatible)).toEqual([false, false]);
    expect(reps[1]!.compatibility).toMatch(/^cloud\/browser-gltf: type "point-cloud" is not supported; .* \| cloud\/browser-image: /);
    expect(reps[2]!.compatibility).toMatch(/\| preview\/browser-image: all declared capabilities match$/);
  });
});

describe('versionSummary', () => {
  it('gives the URLs of a version, its prerelease flag and its retraction', () => {
    expect(versionSummary(REGISTRY, byVersion('2.0.0-rc.1'))).toEqual({
      version: '2.0.0-rc.1',
      createdAt: '2026-01-09T00:00:00Z',
      publishedAt: '2026-01-02T00:00:00Z',
      prerelease: true,
      recordHash: digestOf('chair@2.0.0-rc.1').sri,
      manifestUrl: `${V}/2.0.0-rc.1/aso.object.json`,
      pageUrl: `${V}/2.0.0-rc.1/`,
      apiUrl: `${REGISTRY}/api/v1/objects/chair/versions/2.0.0-rc.1.json`,
      retracted: null,
    });
    expect(versionSummary(REGISTRY, byVersion('1.0.0')).prerelease).toBe(false);
    expect(versionSummary(REGISTRY, lamp.versions[0]!).retracted).toEqual(retraction);
  });
});

describe('apiObject and apiCatalog', () => {
  it('name an object after its latest version and list its versions newest first', () => {
    const object = apiObject(`${REGISTRY}/`, chair);
    expect(object).toMatchObject({ schema: 'aso/api/v1/object', id: 'chair', name: 'Oak chair', latest: '1.1.0', pageUrl: `${REGISTRY}/objects/chair/` });
    expect(object.versions.map((v) => v.version)).toEqual(['2.0.0-rc.1', '1.1.0', '1.0.0']);
  });

  it('summarise every object from its latest version', () => {
    expect(apiCatalog(REGISTRY, [chair, lamp])).toEqual({
      schema: 'aso/api/v1/objects',
      objects: [
        {
          id: 'chair',
          name: 'Oak chair',
          description: 'A chair.',
          tags: ['wood'],
          latest: '1.1.0',
          versions: ['2.0.0-rc.1', '1.1.0', '1.0.0'],
          pageUrl: `${REGISTRY}/objects/chair/`,
          apiUrl: `${REGISTRY}/api/v1/objects/chair.json`,
        },
        {
          id: 'lamp',
          name: 'lamp 0.1.0',
          description: 'The lamp.',
          tags: [],
          latest: '0.1.0',
          versions: ['0.2.0', '0.1.0'],
          pageUrl: `${REGISTRY}/objects/lamp/`,
          apiUrl: `${REGISTRY}/api/v1/objects/lamp.json`,
        },
      ],
      page: 1,
      pageCount: 1,
      total: 2,
      prev: null,
      next: null,
    });
  });
});

describe('apiIndex', () => {
  it('counts objects and versions and gives the templates of the API', () => {
    expect(apiIndex(REGISTRY, [chair, lamp])).toEqual({
      schema: 'aso/api/v1/index',
      registryUrl: REGISTRY,
      objects: `${REGISTRY}/api/v1/objects.json`,
      worlds: `${REGISTRY}/api/v1/worlds.json`,
      objectTemplate: `${REGISTRY}/api/v1/objects/{id}.json`,
      versionTemplate: `${REGISTRY}/api/v1/objects/{id}/versions/{version}.json`,
      counts: { objects: 2, versions: 5 },
      ledger: `${REGISTRY}/api/v1/ledger.json`,
      log: null,
    });
    expect(apiIndex(REGISTRY, []).counts).toEqual({ objects: 0, versions: 0 });
  });
});

describe('apiVersion', () => {
  const worlds: World[] = [
    { id: 'room', name: 'Room', objects: [{ id: 'chair', version: '1.0.0' }, { id: 'lamp', version: '0.1.0' }] },
    { id: 'porch', name: 'Porch', objects: [{ id: 'chair', version: '1.1.0' }] },
    { id: 'hall', name: 'Hall', objects: [{ id: 'chair', version: '1.0.0' }] },
  ];

  it('holds the manifest, the publication, the latest version and the worlds that use this exact version', () => {
    const v = byVersion('1.0.0');
    const doc = apiVersion(REGISTRY, chair, v, worlds);
    expect(doc).toMatchObject({
      schema: 'aso/api/v1/version',
      id: 'chair',
      version: '1.0.0',
      latest: '1.1.0',
      manifestUrl: `${V}/1.0.0/aso.object.json`,
      agentUrl: `${V}/1.0.0/agent.json`,
      pageUrl: `${V}/1.0.0/`,
      worlds: [
        { id: 'room', name: 'Room' },
        { id: 'hall', name: 'Hall' },
      ],
      retracted: null,
    });
    expect(doc.manifest).toBe(v.manifest);
    expect(doc.publication).toBe(v.publication);
    expect(doc.representations).toEqual(apiRepresentations(v.manifest));
    expect(apiVersion(REGISTRY, chair, byVersion('2.0.0-rc.1'), worlds).worlds).toEqual([]);
  });

  it('marks a retracted version', () => {
    expect(apiVersion(REGISTRY, lamp, lamp.versions[0]!, []).retracted).toEqual(retraction);
  });
});

describe('worldsReferencing', () => {
  it('matches id and version exactly', () => {
    const worlds: World[] = [
      { id: 'a', name: 'A', objects: [{ id: 'chair', version: '1.0.0' }] },
      { id: 'b', name: 'B', objects: [{ id: 'chair', version: '1.0.0+build' }] },
      { id: 'c', name: 'C', objects: [{ id: 'chairs', version: '1.0.0' }] },
    ];
    expect(worldsReferencing(worlds, 'chair', '1.0.0').map((w) => w.id)).toEqual(['a']);
  });
});

describe('agentDocument', () => {
  it('describes one version for agents, with the latest version and how to verify it', () => {
    const v = byVersion('1.1.0');
    const doc = agentDocument(REGISTRY, chair, v);
    expect(doc).toMatchObject({
      schema: 'aso/agent/v0.1',
      id: 'chair',
      version: '1.1.0',
      name: 'Oak chair',
      description: 'A chair.',
      tags: ['wood'],
      license: 'CC0-1.0',
      recordHash: digestOf('chair@1.1.0').sri,
      manifestUrl: `${V}/1.1.0/aso.object.json`,
      pageUrl: `${V}/1.1.0/`,
      versionsUrl: `${REGISTRY}/api/v1/objects/chair.json`,
      latestVersion: '1.1.0',
      sdkBaseUrl: `${REGISTRY}/api/v1`,
      retracted: null,
      mcp: {
        command: `npm run --silent mcp -- --site ${REGISTRY}`,
        http: `npm run mcp -- --site ${REGISTRY} --http --port <N>, then http://127.0.0.1:<N>/mcp`,
        tools: ['search_objects', 'get_object', 'list_versions', 'verify_object', 'compare_versions', 'get_world'],
      },
    });
    expect(doc.verification).toMatch(/byteLength.*hash.*recordHash/);
    expect(doc.representations.map((r) => r.id)).toEqual(['mesh']);
  });

  it('gives a null license when none is declared and names the latest even for an older version', () => {
    const doc = agentDocument(REGISTRY, chair, byVersion('1.0.0'));
    expect(doc.license).toBeNull();
    expect(doc.latestVersion).toBe('1.1.0');
  });
});

describe('apiLedgerCheckpoint', () => {
  it('gives the size, head and URLs of a ledger', () => {
    const head = digestOf('last line').sri;
    expect(apiLedgerCheckpoint(REGISTRY, { size: 3, head }, true)).toMatchObject({
      schema: 'aso/api/v1/ledger',
      size: 3,
      head,
      url: `${REGISTRY}/ledger.jsonl`,
      retractionsUrl: `${REGISTRY}/retractions.jsonl`,
    });
  });

  it('is empty, without URLs, when the registry has no ledger and no retractions', () => {
    expect(apiLedgerCheckpoint(REGISTRY, null, false)).toMatchObject({ size: 0, head: null, url: null, retractionsUrl: null });
  });
});
