import type { ClaimReason, ClaimResult } from './claims.js';

// Every claim, whatever its outcome: the calls journal only sees claims that reached an endpoint,
// so a claim refused by the platform's rules (already claimed, account not linked, retry later...)
// would leave no trace. The dashboard's journal reads this one.

/** How a claim ended, at a glance: the four answers to "what happened on this claim?". */
export const CLAIM_OUTCOMES = ['claimed', 'not-verified', 'refused', 'endpoint-fault'] as const;
/** How a claim ended, at a glance. */
export type ClaimOutcome = (typeof CLAIM_OUTCOMES)[number];

/** The outcome of a claim from its reason: every reason but the three of a call is a refusal. */
export function claimOutcome(reason: ClaimReason): ClaimOutcome {
  if (reason === 'claimed' || reason === 'not-verified' || reason === 'endpoint-fault') {
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
export function createClaimJournal(size: number): ClaimJournal {
  let entries: ClaimEntry[] = [];
  const listeners = new Set<(entry: ClaimEntry) => void>();
  return {
    record(entry) {
      if (size > 0) {
        entries.push(entry);
        if (entries.length > size) entries = entries.slice(entries.length - size);
      }
      for (const listener of listeners) listener(entry);
    },
    list(filter = {}) {
      return entries.filter(
        (entry) =>
          (filter.subdomain === undefined || entry.subdomain === filter.subdomain) &&
          (filter.questId === undefined || entry.questId === filter.questId) &&
          (filter.userId === undefined || entry.userId === filter.userId) &&
          (filter.outcome === undefined || entry.outcome === filter.outcome),
      );
    },
    get: (id) => entries.find((entry) => entry.id === id),
    clear() {
      entries = [];
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
