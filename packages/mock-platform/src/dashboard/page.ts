import { escapeHtml } from '@questkit/core';

/** What the page needs to know when it is served. */
export interface DashboardPageOptions {
  /** The communities to choose from, by subdomain. */
  subdomains: readonly string[];
  /** Whether control routes need the control token (the mock is bound beyond loopback). */
  tokenRequired: boolean;
}

/**
 * The dashboard's HTML: a server-rendered shell with one section per area, filled by
 * `/__mock/dashboard/app.js` from the control routes (the same routes scripts use, under the same
 * Host, cross-site and token checks). No data is in the HTML itself, so the page holds nothing a
 * caller without access could read.
 */
export function renderDashboardPage(options: DashboardPageOptions): string {
  const communities = options.subdomains
    .map(
      (subdomain) => `<option value="${escapeHtml(subdomain)}">${escapeHtml(subdomain)}</option>`,
    )
    .join('');
  const token = options.tokenRequired
    ? `<form id="token-form" class="card" aria-labelledby="token-title">
        <h2 id="token-title">Control token</h2>
        <p>The mock is bound beyond loopback: its control routes need the token it printed at start.</p>
        <label for="token">Control token</label>
        <input id="token" name="token" type="password" autocomplete="off" required />
        <button type="submit">Use this token</button>
      </form>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>questkit mock platform: dashboard</title>
  <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
  <link rel="stylesheet" href="/__mock/dashboard/app.css" />
</head>
<body data-token-required="${options.tokenRequired}">
  <a class="skip" href="#main">Skip to the content</a>
  <header>
    <h1>questkit mock platform</h1>
    <label for="community">Community</label>
    <select id="community">${communities}</select>
    <p id="clock-now" class="muted" aria-live="polite"></p>
  </header>
  <nav aria-label="Sections">
    <a href="#journal">Claims</a>
    <a href="#deliveries">Deliveries</a>
    <a href="#members">Members</a>
    <a href="#quests">Quests</a>
    <a href="#clock">Test clock</a>
    <a href="#checks">Endpoint checks</a>
    <a href="#reviews">Reviews</a>
    <a href="#leaderboard">Leaderboard</a>
  </nav>
  <main id="main">
    ${token}
    <p id="error" class="error" role="alert" hidden></p>

    <section id="journal" aria-labelledby="journal-title">
      <h2 id="journal-title">Claims</h2>
      <p class="muted">One row per claim, whatever happened: claimed, not verified (the member did not qualify), key refused (the endpoint refused the task's key), refused before any call (with the reason) or endpoint fault.</p>
      <p id="live" class="muted" aria-live="polite">Connecting…</p>
      <form id="journal-filters" class="filters" role="search" aria-label="Filter the claims">
        <div><label for="filter-member">Member</label><select id="filter-member"><option value="">All members</option></select></div>
        <div><label for="filter-quest">Quest</label><select id="filter-quest"><option value="">All quests</option></select></div>
        <div><label for="filter-outcome">Outcome</label><select id="filter-outcome">
          <option value="">All outcomes</option>
          <option value="claimed">Claimed</option>
          <option value="in-review">In review</option>
          <option value="not-verified">Not verified</option>
          <option value="key-refused">Key refused</option>
          <option value="refused">Refused before any call</option>
          <option value="endpoint-fault">Endpoint fault</option>
        </select></div>
        <div><label for="filter-q">Search</label><input id="filter-q" type="search" placeholder="name, id, message, URL" /></div>
      </form>
      <p id="journal-count" class="muted" role="status"></p>
      <div class="scroll" tabindex="0" role="region" aria-label="Claims table"><table class="cards">
        <caption class="sr-only">Claims, newest first</caption>
        <thead><tr><th scope="col">Outcome</th><th scope="col">Message</th><th scope="col">Member</th><th scope="col">Quest</th><th scope="col">Call</th><th scope="col">Checks</th><th scope="col">Time</th></tr></thead>
        <tbody id="claims"></tbody>
      </table></div>
      <div id="claim-detail" class="card detail" hidden tabindex="-1" aria-labelledby="claim-detail-title">
        <h3 id="claim-detail-title">Claim</h3>
        <dl id="claim-facts" class="facts"></dl>
        <div id="claim-calls"></div>
        <button type="button" data-close="claim-detail">Close</button>
      </div>
    </section>

    <section id="deliveries" aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Webhook deliveries</h2>
      <button type="button" id="deliveries-refresh">Refresh</button>
      <div class="scroll" tabindex="0" role="region" aria-label="Webhook deliveries table"><table class="cards">
        <caption class="sr-only">Webhook deliveries, newest first</caption>
        <thead><tr><th scope="col">Created</th><th scope="col">Webhook</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Tries</th><th scope="col">Last try</th><th scope="col">Next retry</th><th scope="col">Actions</th></tr></thead>
        <tbody id="delivery-rows"></tbody>
      </table></div>
      <p id="delivery-outcome" aria-live="polite"></p>
      <div id="delivery-detail" class="card detail" hidden tabindex="-1" aria-labelledby="delivery-detail-title">
        <h3 id="delivery-detail-title">Delivery</h3>
        <p id="delivery-summary"></p>
        <h4>Attempts</h4><ol id="delivery-attempts"></ol>
        <h4>Payload</h4><pre id="delivery-payload"></pre>
        <button type="button" data-close="delivery-detail">Close</button>
      </div>
    </section>

    <section id="members" aria-labelledby="members-title">
      <h2 id="members-title">Members</h2>
      <form id="member-search" role="search">
        <label for="member-q">Find a member by id, name, email, Discord, Twitter or wallet</label>
        <input id="member-q" name="q" type="search" />
        <button type="submit">Search</button>
      </form>
      <p id="member-results-note" class="muted">Without a search: the named demo members first (marked demo), then the newest members.</p>
      <ul id="member-results" class="list"></ul>
      <p id="selected-member" aria-live="polite">No member selected: search, then choose one.</p>
      <div id="connections" class="card" hidden aria-labelledby="connections-title">
        <h3 id="connections-title">Connect</h3>
        <ul id="connection-list" class="list"></ul>
        <ul id="connect-links" class="list"></ul>
      </div>
      <form id="member-add" class="card" aria-labelledby="member-add-title">
        <h3 id="member-add-title">Add a member</h3>
        <div class="fields">
          <label for="add-name">Name <input id="add-name" name="name" /></label>
          <label for="add-email">Email <input id="add-email" name="email" type="email" /></label>
          <label for="add-discord-id">Discord id <input id="add-discord-id" name="discordId" /></label>
          <label for="add-discord-handle">Discord handle <input id="add-discord-handle" name="discordHandle" /></label>
          <label for="add-xp">Xp <input id="add-xp" name="xp" type="number" min="0" step="1" /></label>
        </div>
        <button type="submit">Add member</button>
        <p id="member-add-outcome" aria-live="polite"></p>
      </form>
    </section>

    <section id="quests" aria-labelledby="quests-title">
      <h2 id="quests-title">Quests with API tasks</h2>
      <p id="claim-hint" class="hint">Select a member under Members first: the Claim buttons claim as that member.</p>
      <ul id="quest-list" class="list"></ul>
    </section>

    <section id="clock" aria-labelledby="clock-title">
      <h2 id="clock-title">Test clock</h2>
      <p id="clock-state"></p>
      <form id="clock-advance">
        <label for="advance-by">Advance by</label>
        <select id="advance-by" name="ms">
          <option value="60000">1 minute</option>
          <option value="600000">10 minutes</option>
          <option value="3600000">1 hour</option>
          <option value="86400000">1 day</option>
        </select>
        <button type="submit">Advance</button>
      </form>
      <p id="clock-outcome" aria-live="polite"></p>
    </section>

    <section id="checks" aria-labelledby="checks-title">
      <h2 id="checks-title">Endpoint checks</h2>
      <button type="button" id="checks-refresh">Refresh</button>
      <div class="scroll" tabindex="0" role="region" aria-label="Endpoint checks table"><table class="cards">
        <caption class="sr-only">Automatic endpoint checks, newest first</caption>
        <thead><tr><th scope="col">Time</th><th scope="col">Endpoint</th><th scope="col">Trigger</th><th scope="col">Verdict</th><th scope="col">Status</th><th scope="col">Checks</th></tr></thead>
        <tbody id="check-rows"></tbody>
      </table></div>
    </section>

    <section id="reviews" aria-labelledby="reviews-title">
      <h2 id="reviews-title">Reviews</h2>
      <p class="muted">Claims of quests that do not validate themselves wait here for a reviewer. Success grants the quest’s xp (and bonus xp with a star); a star raises the member’s karma and star count, a flag lowers karma and raises the flag count. A decided review goes back to pending before it changes.</p>
      <form id="review-filters" class="filters" role="search" aria-label="Filter the reviews">
        <div><label for="review-status">Show reviews</label><select id="review-status">
          <option value="pending">Pending</option>
          <option value="success">Success</option>
          <option value="fail">Fail</option>
          <option value="">Every state</option>
        </select></div>
      </form>
      <button type="button" id="reviews-refresh" class="secondary">Refresh the reviews</button>
      <p id="review-count" class="muted" role="status"></p>
      <div class="scroll" tabindex="0" role="region" aria-label="Reviews table"><table class="cards">
        <caption class="sr-only">Reviews of claimed quests, oldest first</caption>
        <thead><tr><th scope="col">Status</th><th scope="col">Member</th><th scope="col">Quest</th><th scope="col">Submitted</th><th scope="col">Last event</th><th scope="col">Claimed</th><th scope="col">Action</th></tr></thead>
        <tbody id="review-rows"></tbody>
      </table></div>
      <form id="review-form" class="card" hidden aria-labelledby="review-form-title">
        <h3 id="review-form-title" tabindex="-1">Review</h3>
        <fieldset>
          <legend>Decision</legend>
          <label><input type="radio" name="decision" value="success" checked /> Success</label>
          <label><input type="radio" name="decision" value="success-star" /> Success with a star</label>
          <label><input type="radio" name="decision" value="fail" /> Fail</label>
          <label><input type="radio" name="decision" value="fail-flag" /> Fail with a flag</label>
          <label><input type="radio" name="decision" value="pending" /> Back to pending</label>
        </fieldset>
        <div class="fields">
          <label for="review-bonus">Bonus xp (with a star) <input id="review-bonus" name="bonusXP" type="number" min="1" step="1" /></label>
          <label for="review-comment">Comment to the member <textarea id="review-comment" name="comment" maxlength="2000" rows="2"></textarea></label>
        </div>
        <button type="submit">Send the review</button>
        <button type="button" class="secondary" data-close="review-form">Cancel</button>
      </form>
      <p id="review-outcome" aria-live="polite"></p>
    </section>

    <section id="leaderboard" aria-labelledby="leaderboard-title">
      <h2 id="leaderboard-title">Leaderboard</h2>
      <p class="muted">By xp, highest first; banned and deleted members are absent. A sprint counts the xp earned within its dates (from its included quests when it lists some).</p>
      <form id="leaderboard-filters" class="filters" role="search" aria-label="Choose a leaderboard">
        <div><label for="leaderboard-scope">Which leaderboard</label><select id="leaderboard-scope"><option value="">All time</option></select></div>
      </form>
      <p id="leaderboard-count" class="muted" role="status"></p>
      <div class="scroll" tabindex="0" role="region" aria-label="Leaderboard table"><table class="cards">
        <caption class="sr-only">The top 20 members by xp</caption>
        <thead><tr><th scope="col">Place</th><th scope="col">Member</th><th scope="col">Xp</th><th scope="col">Quests</th></tr></thead>
        <tbody id="leaderboard-rows"></tbody>
      </table></div>
    </section>
  </main>
  <script src="/__mock/dashboard/app.js" defer></script>
</body>
</html>
`;
}
