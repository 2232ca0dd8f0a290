import { createRecentRecords } from './recent-records.js';
import type { CallOutcome, VerificationCall } from './verification-call.js';

/** One verification call of a claim, as the journal keeps it. */
export interface CallRecord extends VerificationCall {
  /** The record's own id. */
  id: string;
  /** When the call was sent (platform clock). */
  at: string;
  /** The claim's requestId, shared by every call of the claim. */
  requestId: string;
  subdomain: string;
  communityId: string;
  questId: string;
  taskId: string;
  userId: string;
}

/** Which calls to list; every given field must match. */
export interface CallFilter {
  questId?: string;
  userId?: string;
  outcome?: CallOutcome;
  subdomain?: string;
}

/** The verification calls of claims, oldest first, the last `size` kept. */
export interface CallJournal {
  /** Adds a call, dropping the oldest past the size. */
  record(entry: CallRecord): void;
  /** The calls kept, oldest first; those matching every field of `filter`. */
  list(filter?: CallFilter): CallRecord[];
  /** Forgets every call. */
  clear(): void;
  /** Hears every call recorded from now on (the dashboard's live journal); returns the unsubscribe. */
  subscribe(listener: (entry: CallRecord) => void): () => void;
}

/** A journal keeping the last `size` calls. */
export function createRecordedCalls(size: number): CallJournal {
  return createRecentRecords<CallRecord, keyof CallFilter>(size);
}
