import { readFileSync } from 'node:fs';
import { IDENTIFICATION_METHODS } from '@questkit/core';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { buildBody, buildClaim, DEFAULT_MEMBER } from './claim-body.js';
import { CONNECT_CHECKS } from './connect.js';
import { CLAIM_PROBE_ID, PROBES } from './probes.js';
import { listSchemaFields } from './schema-fields.js';

describe('PROBES', () => {
  it('has unique ids and starts with the well-formed claim', () => {
    const ids = PROBES.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids[0]).toBe(CLAIM_PROBE_ID);
    expect(ids.slice(-2)).toEqual(['load.burst', 'load.latency']);
  });

  it('derives the missing-field probes from the schema, nested required fields included', () => {
    const missing = PROBES.filter((p) => p.id.startsWith('fields.missing.')).map((p) =>
      p.id.slice(15),
    );
    expect(missing).toEqual([
      'userId',
      'communityId',
      'subdomain',
      'questId',
      'requestId',
      'accounts.discord.id',
      'accounts.discord.handle',
      'accounts.twitter.id',
      'accounts.twitter.username',
    ]);
  });

  it('has a wrong-type probe for every field and an account probe for every method', () => {
    const wrong = PROBES.filter((p) => p.id.startsWith('fields.wrong-type.')).map((p) =>
      p.id.slice(18),
    );
    expect(wrong).toContain('accounts');
    expect(wrong).toContain('accounts.svc-connect');
    expect(wrong).toHaveLength(15);
    const only = PROBES.filter((p) => p.id.startsWith('accounts.only.')).map((p) => p.id.slice(14));
    expect(only).toEqual([...IDENTIFICATION_METHODS]);
  });

  it('is plain data that survives JSON', () => {
    expect(JSON.parse(JSON.stringify(PROBES))).toEqual(PROBES);
  });
});

describe('listSchemaFields', () => {
  it('finds required and optional fields and a value of the wrong type for each', () => {
    const schema = z.object({
      count: z.number(),
      name: z.string().optional(),
      inner: z.object({ flag: z.boolean() }),
    });
    expect(listSchemaFields(schema)).toEqual([
      { path: 'count', required: true, wrongValue: 'questkit-wrong-type' },
      { path: 'name', required: false, wrongValue: 12345 },
      { path: 'inner', required: true, wrongValue: 12345 },
      { path: 'inner.flag', required: true, wrongValue: 12345 },
    ]);
  });
});

describe('buildBody', () => {
  const claim = buildClaim(undefined, 'req-1');

  it('applies omit, set and onlyAccounts to a copy of the claim', () => {
    const built = buildBody(
      {
        kind: 'claim',
        omit: ['accounts.discord.id'],
        set: { userId: 7 },
        onlyAccounts: ['discord', 'email'],
      },
      claim,
    );
    expect(built.ok && JSON.parse(built.text!)).toEqual({
      ...claim,
      userId: 7,
      accounts: {
        discord: { handle: DEFAULT_MEMBER.accounts.discord!.handle },
        email: DEFAULT_MEMBER.accounts.email,
      },
    });
    expect(claim.accounts?.discord?.id).toBe(DEFAULT_MEMBER.accounts.discord!.id);
  });

  it('pads to the requested size with valid JSON', () => {
    const built = buildBody({ kind: 'claim', padBytes: 100_000 }, claim);
    expect(built.ok).toBe(true);
    const text = built.ok ? built.text! : '';
    expect(text.length).toBeGreaterThan(100_000);
    expect(JSON.parse(text).questkitPadding).toHaveLength(100_000);
  });

  it('explains a path whose parent the claim lacks', () => {
    const bare = buildClaim({ accounts: {} }, 'req-2');
    expect(buildBody({ kind: 'claim', omit: ['accounts.discord.id'] }, bare)).toEqual({
      ok: false,
      reason: expect.stringMatching(/no accounts\.discord/),
    });
  });
});

describe('README', () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

  it('documents every check id', () => {
    for (const { id } of [...PROBES, ...CONNECT_CHECKS]) {
      const pattern = /^(fields\.missing|fields\.wrong-type|accounts\.only)\.(.+)$/.exec(id);
      if (pattern) {
        expect(readme).toContain(`\`${pattern[1]}.<`);
        if (pattern[1] !== 'fields.wrong-type') expect(readme).toContain(`\`${pattern[2]}\``);
      } else {
        expect(readme).toContain(`\`${id}\``);
      }
    }
  });
});
