import { IDENTIFICATION_METHODS, type IdentificationMethod } from '@questkit/core';
import { buildBody, buildClaim } from './claim-body.js';
import { CONNECT_CHECKS, type ConnectCheckId } from './connect.js';
import { CLAIM_PROBE_ID, PROBES, type Probe } from './probes.js';
import type { OutgoingRequest } from './send.js';
import type { Settings } from './settings.js';
import type { Tier } from './types.js';

/** The key the wrong-key probe sends. */
export const WRONG_API_KEY = 'questkit-conformance-wrong-key';

/**
 * One probe of a run, as data: its tier in this run and every request it sends (one, the
 * burst's, or the series', sent one after another), or why it sends none.
 */
export interface PlannedProbe {
  probe: Probe;
  tier: Tier;
  requests: OutgoingRequest[];
  /** Why the probe sends nothing (no key to drift, a member without that account). */
  skip?: string;
  /** The identification methods of the `accounts` it sends, when it is a claim shape. */
  shape?: readonly IdentificationMethod[];
}

/** The run as data: the probes in the order they run, and the connect checks it runs. */
export interface Plan {
  /** The well-formed claim first: the baseline the others compare with. */
  probes: PlannedProbe[];
  connect: ConnectCheckId[];
  /** Checks the report will hold, the member verdicts included. */
  total: number;
}

/**
 * The tier of a probe in this run. A shape probe is a platform probe unless the run names the
 * task's identification methods and the shape is not theirs: then the platform never sends it.
 */
export function tierOf(probe: Probe, identifications?: readonly IdentificationMethod[]): Tier {
  if (probe.shape === undefined || identifications === undefined) return probe.tier;
  const same =
    probe.shape.length === identifications.length &&
    probe.shape.every((method) => identifications.includes(method));
  return same ? probe.tier : 'hardening';
}

/** Every probe and connect check the run selects, each request built. */
export function planRun(settings: Settings, memberVerdicts: number): Plan {
  const { options } = settings;
  const selected = (id: string) => id === CLAIM_PROBE_ID || matches(options.only, id);
  const inRun = (probe: Probe) =>
    probe.id === CLAIM_PROBE_ID ||
    (selected(probe.id) && settings.tiers.includes(tierOf(probe, settings.identifications)));
  const probes = PROBES.filter(inRun).map((probe) => planProbe(probe, settings));
  const connect =
    options.connect && settings.tiers.includes('members')
      ? CONNECT_CHECKS.map((check) => check.id).filter(selected)
      : [];
  return { probes, connect, total: probes.length + connect.length + memberVerdicts };
}

function planProbe(probe: Probe, settings: Settings): PlannedProbe {
  const tier = tierOf(probe, settings.identifications);
  const shape =
    probe.id === CLAIM_PROBE_ID ? claimShape(settings) : probe.shape && [...probe.shape];
  const planned = { probe, tier, requests: [], ...(shape ? { shape } : {}) };
  if (probe.needsApiKey && settings.apiKey === undefined) {
    const skip = settings.options.noApiKey
      ? 'the task has no API key, so there is no key to drift'
      : 'no API key given: give the task API key (--api-key) to check what a drifted key gets';
    return { ...planned, skip };
  }
  const count =
    probe.mode === 'burst' ? settings.burst : probe.mode === 'series' ? settings.samples : 1;
  const requests: OutgoingRequest[] = [];
  for (let i = 0; i < count; i++) {
    const built = buildRequest(probe, settings);
    if (!built.ok) return { ...planned, skip: built.reason };
    requests.push(built.request);
  }
  return { ...planned, requests };
}

/** The identification methods the well-formed claim's `accounts` carries. */
function claimShape(settings: Settings): IdentificationMethod[] {
  const claim = buildClaim(settings.options.member, '', settings.identifications);
  return IDENTIFICATION_METHODS.filter((method) => claim.accounts?.[method] !== undefined);
}

type BuiltRequest = { ok: true; request: OutgoingRequest } | { ok: false; reason: string };

function buildRequest(probe: Probe, settings: Settings): BuiltRequest {
  const spec = probe.request;
  const claim = buildClaim(settings.options.member, crypto.randomUUID(), settings.identifications);
  const body = buildBody(spec.body ?? { kind: 'claim' }, claim);
  if (!body.ok) return body;
  const headers: Record<string, string> = {};
  const contentType = spec.contentType === undefined ? 'application/json' : spec.contentType;
  if (contentType !== null) headers['content-type'] = contentType;
  const keyMode = spec.apiKey ?? 'valid';
  const { apiKey } = settings;
  if (keyMode === 'valid' && apiKey !== undefined) headers['x-api-key'] = apiKey;
  if (keyMode === 'wrong') {
    headers['x-api-key'] = apiKey === WRONG_API_KEY ? `${WRONG_API_KEY}-2` : WRONG_API_KEY;
  }
  const request: OutgoingRequest = {
    method: spec.method ?? 'POST',
    url: settings.options.url,
    headers,
  };
  if (body.text !== undefined) request.body = body.text;
  return { ok: true, request };
}

function matches(only: readonly string[] | undefined, id: string): boolean {
  if (!only || only.length === 0) return true;
  return only.some((prefix) => id === prefix || id.startsWith(prefix));
}
