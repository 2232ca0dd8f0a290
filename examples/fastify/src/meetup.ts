/**
 * The meetup's own data: who registered for the community call (by email) and who attended it
 * (by Discord account, from the voice channel's attendance log). A real meetup asks its ticketing
 * tool and a Discord bot; this one keeps both in memory, behind the same asynchronous interface.
 */
export interface Meetup {
  /** Whether this email address registered (case does not matter). */
  isRegistered(email: string, signal: AbortSignal): Promise<boolean>;
  /** Minutes this Discord user spent in the call, 0 when absent. */
  minutesAttended(discordId: string, signal: AbortSignal): Promise<number>;
}

/** What a {@link createMeetup} starts with. */
export interface MeetupData {
  registrations: readonly string[];
  /** Discord user id to minutes in the call. */
  attendance: Readonly<Record<string, number>>;
}

/** Minutes in the call that count as attending. */
export const MIN_MINUTES = 15;

/**
 * The demo data, for the mock platform's demo members: ada registered and stayed the whole call;
 * ben (who signed up as `Ben@Example.com`) registered but left after five minutes.
 */
export const DEMO_MEETUP_DATA: MeetupData = {
  registrations: ['ada@example.com', 'ben@example.com'],
  attendance: { '80351110224678912': 55, '80351110224678913': 5 },
};

/**
 * An in-memory meetup.
 *
 * @example
 * const meetup = createMeetup({ registrations: ['ada@example.com'], attendance: {} });
 * await meetup.isRegistered('ADA@example.com', AbortSignal.timeout(1000)); // true
 */
export function createMeetup(data: MeetupData = DEMO_MEETUP_DATA): Meetup {
  const registrations = new Set(data.registrations.map((email) => email.trim().toLowerCase()));
  const attendance = new Map(Object.entries(data.attendance));
  return {
    async isRegistered(email, signal) {
      signal.throwIfAborted();
      return registrations.has(email.trim().toLowerCase());
    },
    async minutesAttended(discordId, signal) {
      signal.throwIfAborted();
      return attendance.get(discordId) ?? 0;
    },
  };
}
