import type { IdentificationMethod } from '@questkit/core';
import { buildRequest, claimShape } from './claim-body.js';
import { CONNECT_CHECKS, type ConnectPlan, planConnect } from './connect.js';
import { CLAIM_PROBE_ID, PROBES, type Probe } from './probes.js';
import type { OutgoingRequest } from './send.js';
import type { Settings } from './settings.js';
import type { Tier } from './types.js';

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

/** The run as data: the probes in the order they run, and the connect redirects it sends. */
export interface Plan {
  /** The well-formed claim first: the baseline the others compare with. */
  probes: PlannedProbe[];
  connect?: ConnectPlan;
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
export async function planRun(settings: Settings, memberVerdicts: number): Promise<Plan> {
  const { options } = settings;
  const selected = (id: string) => matches(options.only, id);
  const inRun = (probe: Probe) =>
    selected(probe.id) && settings.tiers.includes(tierOf(probe, settings.identifications));
  const chosen = PROBES.filter(inRun);
  // The well-formed claim is the baseline the others compare with: sent whenever any probe is,
  // and only then (`--only connect.` sends nothing to the endpoint).
  const claim = PROBES.find((probe) => probe.id === CLAIM_PROBE_ID)!;
  const withBaseline = chosen.length === 0 || chosen[0] === claim ? chosen : [claim, ...chosen];
  const probes = withBaseline.map((probe) => planProbe(probe, settings));
  const ids = CONNECT_CHECKS.map((check) => check.id).filter(selected);
  const connect =
    options.connect && settings.tiers.includes('members') && ids.length > 0
      ? await planConnect(options.connect, ids)
      : undefined;
  return {
    probes,
    ...(connect ? { connect } : {}),
    total: probes.length + (connect?.ids.length ?? 0) + memberVerdicts,
  };
}

function planProbe(probe: Probe, settings: Settings): PlannedProbe {
  const tier = tierOf(probe, settings.identifications);
  const shape =
    probe.id === CLAIM_PROBE_ID
      ? claimShape(settings.options.member, settings.identifications)
      : probe.shape && [...probe.shape];
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
    const built = buildRequest(probe, settings.options, settings.identifications);
    if (!built.ok) return { ...planned, skip: built.reason };
    requests.push(built.request);
  }
  return { ...planned, requests };
}

function matches(only: readonly string[] | undefined, id: string): boolean {
  if (!only || only.length === 0) return true;
  return only.some((prefix) => id === prefix || id.startsWith(prefix));
}
