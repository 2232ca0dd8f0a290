import { readsAsKeyRefusal } from '@questkit/conformance';
import type { ClaimReason, ClaimResult } from './claim-result.js';
import { createRecentRecords } from './recent-records.js';

// Every claim, whatever its outcome: the calls journal only sees claims that reached an endpoint,
// so a claim refused by the platform's rules (already claimed, account not linked, retry later...)
// would leave no trace. The dashboard's journal reads this one.

/** How a claim ended, at a glance: the answers to "what happened on this claim?". */
export const CLAIM_OUTCOMES = [
  'claimed',
  'in-review',
  'not-verified',
  'key-refused',
  'refused',
  'endpoint-fault',
] as const;
/** How a claim ended, at a glance. */
export type ClaimOutcome = (typeof CLAIM_OUTCOMES)[number];

/**
 * The outcome of a claim from its reason and message: every reason but the three of a call is a
 * refusal, and a "not verified" whose message reads as a refused key (`readsAsKeyRefusal`, the
 * judge's rule) is `key-refused`: the endpoint's key, not the member, decided it. The platform
 * cannot tell them apart and says "not verified" to the member either way; the journal can.
 */
export function claimOutcome(reason: ClaimReason, message?: string): ClaimOutcome {
  if (reason === 'not-verified' && readsAsKeyRefusal(message)) return 'key-refused';
  if (
    reason === 'claimed' ||
    reason === 'in-review' ||
    reason === 'not-verified' ||
    reason === 'endpoint-fault'
  ) {
    return reason;
  }
  return 'refused';
}

/**
 * One claim as the journal keeps it: the claim's answer (its tasks carry the calls made, API key
 * redacted), the names of the member and the quest at the time, and when it was answered.
 */
export interface ClaimEntry extends Omit<ClaimResult, 'deliveries'> {
  /** The claim's requestId: one record per claim. */
  id: string;
  /** When the claim was answered (platform clock). */
  at: string;
  outcome: ClaimOutcome;
  /** The member's name then; null when the member has none. */
  userName: string | null;
  /** The quest's name then. */
  questName: string;
}

/** Which claims to list; every given field must match. */
export interface ClaimEntryFilter {
  subdomain?: string;
  questId?: string;
  userId?: string;
  outcome?: ClaimOutcome;
}

/** The claims, oldest first, the last `size` kept. */
export interface ClaimJournal {
  /** Keeps a claim's record (the oldest goes past the journal's size). */
  record(entry: ClaimEntry): void;
  /** The records that match, oldest first. */
  list(filter?: ClaimEntryFilter): ClaimEntry[];
  /** The claim of this requestId, while it is kept. */
  get(id: string): ClaimEntry | undefined;
  /** Forgets every record. */
  clear(): void;
  /** Hears every claim recorded from now on (the dashboard's live journal); returns the unsubscribe. */
  subscribe(listener: (entry: ClaimEntry) => void): () => void;
}

/** A journal keeping the last `size` claims. */
export function createRecordedClaims(size: number): ClaimJournal {
  const journal = createRecentRecords<ClaimEntry, keyof ClaimEntryFilter>(size);
  return { ...journal, get: (id) => journal.entries().find((entry) => entry.id === id) };
}
