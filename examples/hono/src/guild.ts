/**
 * The guild's own data: its Discord roster (who joined the server, with which roles) and the
 * wallets holding a membership pass. A real guild asks the Discord API and an indexer; this one
 * keeps both in memory, behind the same asynchronous interface.
 */
export interface Guild {
  /** The roles of a Discord user on the guild's server, or null when they have not joined. */
  rolesOf(discordId: string, signal: AbortSignal): Promise<readonly string[] | null>;
  /** How many membership passes this wallet holds (hex case does not matter). */
  passesOf(wallet: string, signal: AbortSignal): Promise<number>;
  /** Records a welcome for a member who just joined the community (a real guild posts one). */
  welcome(userId: string, name: string | null): void;
  /** The welcomes so far, oldest first. */
  welcomes(): readonly { userId: string; text: string }[];
  /**
   * Credits a quest a member succeeded to the guild member with this Discord account (the guild
   * knows its members by Discord account); false when the guild has no such member.
   */
  credit(discordId: string, quest: { id: string; name: string; xp: number | null }): boolean;
  /** The credits so far, oldest first. */
  credits(): readonly GuildCredit[];
}

/** A quest credited to a guild member. */
export interface GuildCredit {
  discordId: string;
  questId: string;
  text: string;
}

/** What a {@link createGuild} starts with. */
export interface GuildData {
  /** Discord user id to roles. */
  roster: Readonly<Record<string, readonly string[]>>;
  /** Wallet address to passes held. */
  passes: Readonly<Record<string, number>>;
}

/**
 * The demo data, for the mock platform's demo members: ada joined the server and picked a role
 * and holds a pass; ben joined but picked no role; jay's wallet holds no pass.
 */
export const DEMO_GUILD_DATA: GuildData = {
  roster: {
    '80351110224678912': ['member', 'builder'],
    '80351110224678913': [],
  },
  passes: {
    '0x52908400098527886E0F7030069857D2E4169EE7': 1,
  },
};

/**
 * An in-memory guild.
 *
 * @example
 * const guild = createGuild({ roster: { '123': ['member'] }, passes: {} });
 * await guild.rolesOf('123', AbortSignal.timeout(1000)); // ['member']
 */
export function createGuild(data: GuildData = DEMO_GUILD_DATA): Guild {
  const roster = new Map(Object.entries(data.roster));
  const passes = new Map(
    Object.entries(data.passes).map(([wallet, count]) => [wallet.toLowerCase(), count]),
  );
  const welcomes: { userId: string; text: string }[] = [];
  const credits: GuildCredit[] = [];
  return {
    welcome(userId, name) {
      welcomes.push({
        userId,
        text: `Welcome to the guild, ${name ?? 'new member'}! Pick a role in #roles.`,
      });
    },
    welcomes: () => welcomes,
    credit(discordId, quest) {
      if (!roster.has(discordId)) return false;
      credits.push({
        discordId,
        questId: quest.id,
        text: `+${quest.xp ?? 0} guild points for "${quest.name}"`,
      });
      return true;
    },
    credits: () => credits,
    async rolesOf(discordId, signal) {
      signal.throwIfAborted();
      return roster.get(discordId) ?? null;
    },
    async passesOf(wallet, signal) {
      signal.throwIfAborted();
      return passes.get(wallet.trim().toLowerCase()) ?? 0;
    },
  };
}
