/**
 * The secrets the servers under test are configured with, and a scanner that searches everything
 * a suite captured (answers, log lines, error messages) for them.
 */

/** The task's API key. Distinctive, so a search cannot match it by accident. */
export const API_KEY = 'qk-api-key-5b7d0c1e9f3a4e62b8d1c0a7f6e5d4c3';
/** The community's connect secret. */
export const CONNECT_SECRET = 'qk-connect-secret-8e2f4a6c1b3d5e7f9a0b2c4d6e8f0a1b';
/** Prefix of the wrong keys the suites send: a server must not echo a caller's key either. */
export const WRONG_KEY_PREFIX = 'qk-wrong-key-';

const HEX_64 = /[0-9a-fA-F]{64}/g;

/** One place a secret was found. */
export interface Leak {
  where: string;
  secret: string;
  excerpt: string;
}

/**
 * Searches text for the fixed secrets, for any wrong key a suite sent, and for every connect
 * signature a suite sent (64-hex runs are looked up in the set of signatures sent).
 */
export class LeakScanner {
  /** The first leaks found, for the failure message. */
  readonly leaks: Leak[] = [];
  /** Every leak found. */
  leakCount = 0;
  /** Characters searched so far. */
  scannedChars = 0;
  /** Texts searched so far. */
  scannedTexts = 0;
  private readonly signatures = new Set<string>();
  private readonly fixed: readonly string[];

  constructor(fixed: readonly string[] = [API_KEY, CONNECT_SECRET, WRONG_KEY_PREFIX]) {
    this.fixed = fixed;
  }

  /** A signature the suite sent to a server: it must never come back or be logged. */
  addSignature(signature: string): void {
    this.signatures.add(signature.toLowerCase());
  }

  get secretsSought(): number {
    return this.fixed.length + this.signatures.size;
  }

  /** Searches one text (an answer, a log, an error message). */
  scan(where: string, text: string): void {
    this.scannedChars += text.length;
    this.scannedTexts++;
    for (const secret of this.fixed) this.find(where, text, secret, text.indexOf(secret));
    for (const match of text.matchAll(HEX_64)) {
      if (this.signatures.has(match[0].toLowerCase()))
        this.find(where, text, 'a sent signature', match.index);
    }
  }

  private find(where: string, text: string, secret: string, index: number): void {
    if (index === -1) return;
    this.leakCount++;
    if (this.leaks.length < 20) {
      this.leaks.push({ where, secret, excerpt: text.slice(Math.max(0, index - 80), index + 80) });
    }
  }
}
