// @ts-check
// The dashboard's script, served as /__mock/dashboard/app.js. Plain browser JavaScript, no build
// step and no library: it reads and drives the mock through the control routes, and writes every
// value with `textContent`, never as HTML, so data from the mock (member names, endpoint answers)
// cannot run as code in the page. Loaded as a classic script: strict by its own directive.
// biome-ignore lint/suspicious/noRedundantUseStrict: a classic script, not a module
'use strict';
(() => {
  const CHECKS = ['response_time', 'message_format', 'status_code'];
  /**
   * An element of page.html by id (any: the page's ids are its contract with this script, and a
   * missing one is a clear error here rather than a null further on).
   * @param {string} id
   * @returns {any}
   */
  const $ = (id) => {
    const element = document.getElementById(id);
    if (!element) throw new Error(`The dashboard page has no #${id}`);
    return element;
  };
  /**
   * A record as a control route answers it: JSON the script only reads and shows.
   * @typedef {Record<string, any>} Json
   */
  /**
   * @type {{ subdomain: string, member: Json | null, quests: Json[], claims: Json[],
   *   token: string | null, reviews: Json[], reviewing: Json | null }}
   */
  const state = {
    subdomain: $('community').value,
    member: null,
    quests: [],
    claims: [],
    token: sessionStorage.getItem('qk-control-token'),
    reviews: [],
    reviewing: null,
  };
  const tokenRequired = document.body.dataset.tokenRequired === 'true';

  /** An element with properties and children (strings become text, never HTML). */
  function el(tag, props = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props)) {
      if (key === 'class') node.className = value;
      else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
      else if (key in node) node[key] = value;
      else node.setAttribute(key, value);
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function showError(error) {
    const box = $('error');
    box.textContent = error instanceof Error ? error.message : String(error);
    box.hidden = false;
  }

  async function api(method, path, body) {
    const headers = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (state.token) headers['x-questkit-control-token'] = state.token;
    const response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const data = text === '' ? null : JSON.parse(text);
    if (!response.ok) throw new Error(data?.message || `${method} ${path}: ${response.status}`);
    $('error').hidden = true;
    return data;
  }

  const base = () => `/__mock/communities/${encodeURIComponent(state.subdomain)}`;
  const time = (iso) => (iso ? new Date(iso).toISOString().replace('T', ' ').slice(0, 19) : '-');
  const short = (id) => (id ? `${id.slice(0, 8)}…` : '-');
  const pretty = (value) => {
    if (typeof value !== 'string') return JSON.stringify(value, null, 2);
    try {
      return JSON.stringify(JSON.parse(value), null, 2);
    } catch {
      return value;
    }
  };
  const clip = (text, max) => (text.length > max ? `${text.slice(0, max)}…` : text);
  const quoteShell = (text) => `'${text.replaceAll("'", "'\\''")}'`;
  /** A table cell; its label heads it when rows become cards on a narrow screen. */
  const cell = (label, props, ...children) =>
    el('td', { 'data-label': label, ...props }, ...children);
  /** An empty table's one row: what to do to fill it. */
  const emptyRow = (columns, text) =>
    el('tr', { class: 'empty' }, el('td', { colSpan: columns }, text));
  /** Writes an action's result next to the control that caused it (an aria-live element). */
  function say(target, text, failed) {
    const box = typeof target === 'string' ? $(target) : target;
    box.textContent = text;
    box.classList.toggle('error', Boolean(failed));
    box.hidden = false;
  }
  const failInto = (target) => (error) =>
    say(target, error instanceof Error ? error.message : String(error), true);

  // The journal of claims: every claim, whatever its outcome, filtered in the page.

  const OUTCOMES = {
    claimed: 'Claimed',
    'in-review': 'In review',
    'not-verified': 'Not verified',
    'key-refused': 'Key refused',
    refused: 'Refused',
    'endpoint-fault': 'Endpoint fault',
  };
  const CLAIM_LIMIT = 1000;
  // The platform tells the member "not verified"; the journal says who decided it.
  const KEY_REFUSED =
    "the endpoint refused the key, not the member: set its key to the task's API key";

  /** The task call that decided the claim: the last one made; undefined when none was. */
  const decisiveCall = (claim) => claim.tasks.filter((task) => task.request).pop();
  const memberLabel = (claim) => claim.userName || '(no name)';
  const noAnswer = (task) => `no answer from ${task.request.url} — not judged`;

  /** A check's verdict: pass and fail as judged; anything else (not judged, warning...) is neutral. */
  function verdictOf(task, check) {
    const given = Array.isArray(task.checks)
      ? task.checks.find((entry) => entry.check === check)?.verdict
      : task.checks && typeof task.checks === 'object'
        ? task.checks[check]
        : undefined;
    if (typeof given === 'string') return given === 'not_judged' ? 'not judged' : given;
    if (!task.response) return 'not judged';
    const mine = (task.violations || []).filter((v) => v.check === check);
    if (mine.some((v) => v.severity === 'error')) return 'fail';
    if (mine.some((v) => v.severity === 'warning')) return 'warning';
    return 'pass';
  }
  const verdictClass = (verdict) =>
    verdict === 'pass' ? 'pass' : verdict === 'fail' ? 'fail' : 'neutral';

  function checksOf(task) {
    if (!task) return el('span', { class: 'muted' }, 'no call');
    if (!task.response && !task.checks) return el('span', { class: 'neutral' }, 'not judged');
    return el(
      'ul',
      { class: 'list checks' },
      ...CHECKS.map((check) => {
        const verdict = verdictOf(task, check);
        return el('li', {}, el('span', { class: verdictClass(verdict) }, verdict), ' ', check);
      }),
    );
  }

  function callSummary(claim, task) {
    if (!task) {
      const missing = claim.tasks.find((t) => t.error);
      return el(
        'span',
        { class: 'muted' },
        missing ? `no call: ${missing.error}` : 'no call: refused before any call',
      );
    }
    if (!task.response)
      return el(
        'span',
        {},
        el('span', { class: 'neutral' }, noAnswer(task)),
        task.error ? ` (${task.error})` : '',
      );
    // A 400 is a valid answer (not verified), neither a pass nor a fault.
    const look =
      task.outcome === 'verified' ? 'pass' : task.outcome === 'fault' ? 'fail' : 'neutral';
    return el(
      'span',
      {},
      el('span', { class: look }, `HTTP ${task.response.status}`),
      ` in ${Math.round(task.durationMs)} ms`,
    );
  }

  /** A name with its full id one click away. */
  function named(name, kind, ids) {
    return [
      el('span', { class: 'name' }, name),
      el(
        'details',
        { class: 'ids' },
        el('summary', {}, el('span', { class: 'sr-only' }, `${kind} `), 'ids'),
        el(
          'dl',
          { class: 'facts' },
          ...ids.flatMap(([label, id]) => [el('dt', {}, label), el('dd', {}, el('code', {}, id))]),
        ),
      ),
    ];
  }

  function claimRow(claim) {
    const task = decisiveCall(claim);
    const outcome = el(
      'span',
      { class: `badge outcome-${claim.outcome}` },
      OUTCOMES[claim.outcome] || claim.outcome,
    );
    return el(
      'tr',
      { 'data-request-id': claim.requestId, 'data-outcome': claim.outcome },
      cell(
        'Outcome',
        { class: 'outcome' },
        outcome,
        claim.outcome === 'key-refused'
          ? el('span', { class: 'reason' }, KEY_REFUSED)
          : claim.outcome === 'refused' || claim.reason !== claim.outcome
            ? el('span', { class: 'reason' }, claim.reason)
            : null,
      ),
      cell('Message', { class: 'message' }, claim.message),
      cell(
        'Member',
        { class: 'member' },
        ...named(memberLabel(claim), 'Member', [['Member id', claim.userId]]),
      ),
      cell(
        'Quest',
        {},
        ...named(
          claim.questName,
          'Quest',
          [
            ['Quest id', claim.questId],
            ['Request id', claim.requestId],
          ].concat(claim.tasks.map((t) => ['Task id', t.taskId])),
        ),
      ),
      cell('Call', { class: 'call' }, callSummary(claim, task)),
      cell('Checks', {}, checksOf(task)),
      // Details open from a Details button, as a delivery's do.
      cell(
        'Time',
        {},
        time(claim.at),
        ' ',
        el(
          'button',
          {
            type: 'button',
            class: 'secondary',
            onclick: () => openClaim(claim),
            'aria-label':
              'Details of the claim of ' +
              claim.questName +
              ' by ' +
              memberLabel(claim) +
              ' at ' +
              time(claim.at),
          },
          'Details',
        ),
      ),
    );
  }

  function fillSelect(select, entries, all) {
    const chosen = select.value;
    select.replaceChildren(
      el('option', { value: '' }, all),
      ...entries.map(([value, label]) => el('option', { value }, label)),
    );
    select.value = entries.some(([value]) => value === chosen) ? chosen : '';
  }

  function renderClaims() {
    const members = new Map();
    const quests = new Map();
    for (const claim of state.claims) {
      members.set(claim.userId, memberLabel(claim));
      quests.set(claim.questId, claim.questName);
    }
    const byName = (a, b) => a[1].localeCompare(b[1]);
    fillSelect($('filter-member'), [...members].sort(byName), 'All members');
    fillSelect($('filter-quest'), [...quests].sort(byName), 'All quests');
    const member = $('filter-member').value;
    const quest = $('filter-quest').value;
    const outcome = $('filter-outcome').value;
    const q = $('filter-q').value.trim().toLowerCase();
    const shown = state.claims
      .filter((claim) => {
        if (
          (member && claim.userId !== member) ||
          (quest && claim.questId !== quest) ||
          (outcome && claim.outcome !== outcome)
        )
          return false;
        if (!q) return true;
        const task = decisiveCall(claim);
        return [
          claim.userName,
          claim.userId,
          claim.questName,
          claim.questId,
          claim.requestId,
          claim.message,
          claim.reason,
          claim.outcome,
          task?.request.url,
          task?.error,
        ].some((text) => text && String(text).toLowerCase().includes(q));
      })
      .reverse();
    const filtered = member || quest || outcome || q;
    $('claims').replaceChildren(
      ...(shown.length
        ? shown.map(claimRow)
        : [
            emptyRow(
              7,
              state.claims.length
                ? 'No claim matches these filters: clear the search or choose "All".'
                : 'No claims yet: select a member under Members, then claim a quest below (Quests).',
            ),
          ]),
    );
    $('journal-count').textContent =
      state.claims.length === 0
        ? ''
        : filtered
          ? `${shown.length} of ${state.claims.length} claims shown`
          : `${state.claims.length} claims, newest first`;
  }

  async function loadClaims() {
    state.claims = await api(
      'GET',
      `/__mock/claims?subdomain=${encodeURIComponent(state.subdomain)}`,
    );
    renderClaims();
  }

  function addClaim(claim) {
    if (claim.subdomain !== state.subdomain) return;
    state.claims.push(claim);
    if (state.claims.length > CLAIM_LIMIT) state.claims.shift();
    renderClaims();
    $('live').textContent =
      'Live: last claim ' +
      time(claim.at) +
      ', ' +
      (OUTCOMES[claim.outcome] || claim.outcome).toLowerCase() +
      (claim.outcome === 'refused' ? ` (${claim.reason})` : '');
  }

  /** A curl line that works when pasted: the key is read from $QUEST_API_KEY, in double quotes. */
  function curlLine(request) {
    const headers = Object.entries(request.headers).map(([name, value]) =>
      name === 'x-api-key'
        ? ' -H "x-api-key: $QUEST_API_KEY"'
        : ` -H ${quoteShell(`${name}: ${value}`)}`,
    );
    return (
      'curl -sS -X POST ' +
      quoteShell(request.url) +
      headers.join('') +
      ' --data-raw ' +
      quoteShell(request.body)
    );
  }

  function answerText(call) {
    if (!call.response) return noAnswer(call) + (call.error ? `\n${call.error}` : '');
    return (
      'HTTP ' +
      call.response.status +
      ' ' +
      (call.response.contentType || '') +
      ' in ' +
      Math.round(call.durationMs) +
      ' ms\n' +
      pretty(call.response.body) +
      '\n\n' +
      CHECKS.map((check) => `${check}: ${verdictOf(call, check)}`).join('\n')
    );
  }

  function taskBlock(claim, task) {
    if (!task.request) {
      return el(
        'div',
        { class: 'task' },
        el('h4', {}, `Task ${task.taskId}`),
        el(
          'p',
          {},
          task.error
            ? `No call: ${task.error}.`
            : `No call: the claim was refused before any call (${claim.reason}).`,
        ),
      );
    }
    const replayed = el('pre', { class: 'replay-answer' }, 'Not replayed yet.');
    const status = el('p', { class: 'action-result', 'aria-live': 'polite' });
    const hasKey = 'x-api-key' in task.request.headers;
    const replay = async () => {
      say(status, 'Replaying…');
      const call = await api(
        'POST',
        '/__mock/claims/' +
          encodeURIComponent(claim.requestId) +
          '/tasks/' +
          encodeURIComponent(task.taskId) +
          '/replay',
      );
      replayed.textContent = answerText(call);
      say(
        status,
        'Replayed at ' +
          time(call.at) +
          ': ' +
          (call.response ? `HTTP ${call.response.status}, ${call.outcome}` : noAnswer(call)) +
          '.',
      );
    };
    return el(
      'div',
      { class: 'task', 'data-task-id': task.taskId },
      el('h4', {}, `Call of task ${task.taskId}`),
      el('h5', {}, 'Request headers'),
      el('pre', {}, pretty(task.request.headers)),
      el('h5', {}, 'Request body'),
      el('pre', {}, pretty(task.request.body)),
      el(
        'div',
        { class: 'answers' },
        el(
          'div',
          {},
          el('h5', {}, 'Recorded answer'),
          el('pre', { class: 'recorded-answer' }, answerText(task)),
        ),
        el('div', {}, el('h5', {}, 'Replay answer'), replayed),
      ),
      el(
        'button',
        { type: 'button', class: 'replay', onclick: () => replay().catch(failInto(status)) },
        'Replay this call through the mock',
      ),
      status,
      el('h5', {}, 'Replay with curl'),
      hasKey
        ? el(
            'p',
            { class: 'muted' },
            "Set QUEST_API_KEY to the task’s API key first: export QUEST_API_KEY='…'",
          )
        : null,
      el('pre', { class: 'curl' }, curlLine(task.request)),
    );
  }

  function openClaim(claim) {
    $('claim-detail-title').textContent = `Claim of ${claim.questName} by ${memberLabel(claim)}`;
    const facts = [
      ['Outcome', `${OUTCOMES[claim.outcome] || claim.outcome} (${claim.reason})`],
      ['Message', claim.message],
      ['Time', time(claim.at)],
      ['Member', `${memberLabel(claim)} ${claim.userId}`],
      ['Quest', `${claim.questName} ${claim.questId}`],
      ['Request id', claim.requestId],
    ];
    $('claim-facts').replaceChildren(
      ...facts.flatMap(([label, value]) => [el('dt', {}, label), el('dd', {}, value)]),
    );
    $('claim-calls').replaceChildren(...claim.tasks.map((task) => taskBlock(claim, task)));
    const detail = $('claim-detail');
    detail.hidden = false;
    detail.focus();
  }

  function follow() {
    if (tokenRequired) {
      // EventSource cannot send the token header: poll instead.
      $('live').textContent = 'Refreshing every 2 s';
      setInterval(() => loadClaims().catch(showError), 2000);
      return;
    }
    const events = new EventSource('/__mock/events');
    events.addEventListener('ready', () => {
      $('live').textContent = 'Live: new claims appear here';
    });
    events.addEventListener('claim', (event) => {
      addClaim(JSON.parse(event.data));
      loadDeliveries().catch(showError);
    });
    events.onerror = () => {
      $('live').textContent = 'Reconnecting…';
    };
  }

  // Deliveries

  async function loadDeliveries() {
    const records = await api('GET', '/__mock/webhooks/deliveries');
    $('delivery-rows').replaceChildren(
      ...(records.length
        ? records.map((record) =>
            el(
              'tr',
              { 'data-delivery-id': record.id },
              cell('Created', {}, time(record.createdAt)),
              cell('Webhook', {}, record.webhookName || short(record.webhookId)),
              cell('Event', {}, record.eventType),
              cell(
                'Status',
                {},
                el(
                  'span',
                  {
                    class:
                      record.status === 'success'
                        ? 'pass'
                        : record.status === 'pending'
                          ? 'neutral'
                          : 'fail',
                  },
                  record.status,
                ),
              ),
              cell('Tries', { class: 'tries' }, String(record.tries)),
              cell('Last try', { class: 'last-try' }, lastTry(record.lastAttempt)),
              cell('Next retry', {}, record.status === 'failed' ? time(record.retryAt) : '-'),
              cell(
                'Actions',
                {},
                el(
                  'button',
                  {
                    type: 'button',
                    class: 'secondary',
                    onclick: () => openDelivery(record.id).catch(failInto('delivery-outcome')),
                    'aria-label': `Details of delivery ${record.eventType} at ${time(record.createdAt)}`,
                  },
                  'Details',
                ),
                ' ',
                el(
                  'button',
                  {
                    type: 'button',
                    onclick: () => replayDelivery(record.id).catch(failInto('delivery-outcome')),
                    'aria-label': `Replay delivery ${record.eventType} at ${time(record.createdAt)}`,
                  },
                  'Replay',
                ),
              ),
            ),
          )
        : [
            emptyRow(
              8,
              'No deliveries yet: add a member or claim a quest; each active webhook of the community subscribed to the event receives it.',
            ),
          ]),
    );
  }

  /** A delivery's last try in its row: what came back and, for a refusal, why; '-' before any. */
  function lastTry(attempt) {
    if (!attempt) return '-';
    const what = attempt.status === null ? attempt.error : `HTTP ${attempt.status}`;
    return el(
      'span',
      {},
      el('span', { class: attempt.ok ? 'pass' : 'fail' }, what),
      attempt.body && !attempt.ok
        ? el('span', { class: 'answer-body' }, ', answered ', el('q', {}, clip(attempt.body, 120)))
        : null,
      attempt.explanation
        ? el('span', { class: 'attempt-explanation' }, attempt.explanation)
        : null,
    );
  }

  async function openDelivery(id) {
    const record = await api('GET', `/__mock/webhooks/deliveries/${encodeURIComponent(id)}`);
    $('delivery-detail-title').textContent = `Delivery ${record.id}`;
    $('delivery-summary').textContent =
      record.eventType +
      ': ' +
      record.status +
      ', ' +
      record.tries +
      ' tries' +
      (record.status === 'failed' ? `, next retry ${time(record.retryAt)}` : '');
    $('delivery-attempts').replaceChildren(
      ...record.attempts.map((attempt) =>
        el(
          'li',
          {},
          'try ' +
            attempt.try +
            ' at ' +
            time(attempt.at) +
            ': ' +
            (attempt.status === null ? attempt.error : `HTTP ${attempt.status}`) +
            ' in ' +
            Math.round(attempt.durationMs) +
            ' ms',
          attempt.body
            ? el(
                'span',
                { class: 'answer-body' },
                ', answered ',
                el('q', {}, clip(attempt.body, 120)),
              )
            : null,
          attempt.explanation
            ? el('p', { class: 'attempt-explanation' }, attempt.explanation)
            : null,
        ),
      ),
    );
    $('delivery-payload').textContent = pretty(record.payload);
    const detail = $('delivery-detail');
    detail.dataset.deliveryId = id;
    detail.hidden = false;
    detail.focus();
  }

  async function replayDelivery(id) {
    const answer = await api(
      'POST',
      `/__mock/webhooks/deliveries/${encodeURIComponent(id)}/replay`,
    );
    say(
      'delivery-outcome',
      `Replayed as ${answer.deliveries.map((d) => `${d.id} (${d.status})`).join(', ')}`,
    );
    await loadDeliveries();
  }

  // Members and connect

  function memberItem(user) {
    return el(
      'li',
      { 'data-user-id': user.id },
      el('strong', {}, user.name || '(no name)'),
      user.demo ? el('span', { class: 'badge demo' }, 'demo') : null,
      el('code', {}, user.id),
      user.discordHandle ? el('span', {}, `Discord ${user.discordHandle}`) : null,
      user.email ? el('span', {}, user.email) : null,
      el('span', {}, `level ${user.level}`),
      el(
        'button',
        {
          type: 'button',
          class: 'secondary',
          onclick: () => selectMember(user).catch(failInto('selected-member')),
          'aria-label': `Select ${user.name || user.id}`,
        },
        'Select',
      ),
    );
  }

  async function search(q) {
    const members = await api('GET', `${base()}/members?q=${encodeURIComponent(q)}`);
    $('member-results-note').hidden = q.trim() !== '';
    $('member-results').replaceChildren(
      ...(members.length
        ? members.map(memberItem)
        : [
            el(
              'li',
              {},
              'No member found: search by a full email, Discord id or handle, or the start of a name; or add the member below.',
            ),
          ]),
    );
  }

  async function selectMember(user) {
    state.member = user;
    $('selected-member').textContent = `Selected member: ${user.name || '(no name)'} (${user.id})`;
    renderQuests();
    const connections = await api(
      'GET',
      `${base()}/users/${encodeURIComponent(user.id)}/connections`,
    );
    $('connection-list').replaceChildren(
      ...(connections.length
        ? connections.map((link) =>
            el(
              'li',
              {},
              'Linked ' +
                link.identifier +
                ' for ' +
                link.redirectUrl +
                ' on ' +
                time(link.createdAt),
            ),
          )
        : [el('li', {}, 'No connect association yet: start the connect flow of a quest below.')]),
    );
    const connectQuests = state.quests.filter((quest) =>
      quest.tasks.some((task) => task.identifications.includes('svc-connect')),
    );
    $('connect-links').replaceChildren(
      ...connectQuests.map((quest) =>
        el(
          'li',
          {},
          el(
            'a',
            {
              href:
                '/__mock/connect/start?subdomain=' +
                encodeURIComponent(state.subdomain) +
                '&questId=' +
                encodeURIComponent(quest.id) +
                '&userId=' +
                encodeURIComponent(user.id),
              class: 'connect-link',
              onclick: startConnect,
            },
            `Start the connect flow of "${quest.name}" as this member`,
          ),
        ),
      ),
    );
    $('connections').hidden = false;
  }

  // Starting a flow needs the control token when the mock asks for one; a link cannot send it,
  // so the script asks for the signed redirect and takes the browser there.
  function startConnect(event) {
    if (!tokenRequired) return;
    event.preventDefault();
    api('GET', event.currentTarget.getAttribute('href'))
      .then((answer) => window.location.assign(answer.location))
      .catch(showError);
  }

  async function addMember(form) {
    const body = {};
    for (const [name, value] of new FormData(form)) {
      if (value === '') continue;
      body[name] = name === 'xp' ? Number(value) : value;
    }
    say('member-add-outcome', 'Adding…');
    const answer = await api('POST', `${base()}/members`, body);
    say('member-add-outcome', `Added ${answer.user.name || answer.user.id} (${answer.user.id})`);
    form.reset();
    await selectMember(answer.user);
    await loadDeliveries();
  }

  // Quests and claims

  function renderQuests() {
    const member = state.member;
    $('claim-hint').textContent = member
      ? 'Claims are made as ' +
        (member.name || '(no name)') +
        ' (' +
        member.id +
        '); their outcome shows beside each quest and in Claims.'
      : 'Select a member under Members first: the Claim buttons claim as that member.';
    $('quest-list').replaceChildren(
      ...(state.quests.length
        ? state.quests.map((quest) => {
            const result = el('p', { class: 'action-result', 'aria-live': 'polite', hidden: true });
            // The visible text starts the accessible name, so speech input finds the button by what it shows.
            const text = member
              ? `Claim as ${member.name || 'selected member'}`
              : 'Claim as selected member';
            return el(
              'li',
              { 'data-quest-id': quest.id },
              el('strong', {}, quest.name),
              quest.demo ? el('span', { class: 'badge demo' }, 'demo') : null,
              el('code', {}, quest.id),
              el('span', {}, quest.recurrence),
              ...quest.tasks
                .filter((task) => task.endpoint)
                .map((task) => el('span', {}, 'calls ', el('code', {}, task.endpoint))),
              quest.published ? null : el('span', {}, '(not published)'),
              el(
                'button',
                {
                  type: 'button',
                  disabled: !member,
                  onclick: () => claim(quest, result).catch(failInto(result)),
                  'aria-label': `${text}: ${quest.name}`,
                  'aria-describedby': 'claim-hint',
                  ...(member ? {} : { title: 'Select a member first' }),
                },
                text,
              ),
              result,
            );
          })
        : [
            el(
              'li',
              {},
              'No quest with an API task in this community: create one through the public API (POST /public/communities/' +
                state.subdomain +
                '/quests).',
            ),
          ]),
    );
  }

  async function loadQuests() {
    state.quests = await api('GET', `${base()}/quests`);
    renderQuests();
  }

  async function claim(quest, result) {
    say(result, 'Claiming…');
    const answer = await api('POST', `${base()}/quests/${encodeURIComponent(quest.id)}/claims`, {
      userId: /** @type {Json} */ (state.member).id,
    });
    if (answer.status === 'pending') loadReviews().catch(showError);
    if (answer.status === 'success') loadLeaderboard().catch(showError);
    const outcome =
      answer.status === 'success'
        ? 'Claimed'
        : answer.status === 'pending'
          ? 'In review'
          : answer.status === 'error'
            ? 'Endpoint fault'
            : answer.tasks.some((t) => t.request)
              ? 'Not verified'
              : 'Refused before any call';
    say(
      result,
      outcome +
        ' (' +
        answer.reason +
        '): ' +
        answer.message +
        ' Request id ' +
        answer.requestId +
        '.',
      answer.status !== 'success',
    );
  }

  // Clock and endpoint checks

  async function loadClock() {
    const clock = await api('GET', '/__mock/clock');
    $('clock-now').textContent = `Platform time ${time(clock.now)} (${clock.mode} clock)`;
    $('clock-state').textContent =
      'Now ' +
      time(clock.now) +
      ', ' +
      clock.mode +
      ' clock, ' +
      clock.pendingRetries +
      (clock.pendingRetries === 1 ? ' retry waiting.' : ' retries waiting.') +
      (clock.mode === 'manual'
        ? ''
        : ' The system clock cannot be moved: start the mock with --clock manual to advance it here.');
    $('clock-advance').hidden = clock.mode !== 'manual';
  }

  async function advance(ms) {
    const report = await api('POST', '/__mock/clock/advance', { ms });
    $('clock-outcome').textContent =
      'Advanced to ' +
      time(report.now) +
      ': ' +
      report.ran +
      ' retries ran, ' +
      report.pending +
      ' waiting.';
    await Promise.all([loadClock(), loadDeliveries()]);
    const open = $('delivery-detail');
    if (!open.hidden) await openDelivery(open.dataset.deliveryId);
  }

  async function loadChecks() {
    const checks = await api('GET', '/__mock/endpoint-checks');
    // The verdicts come from the judge of questkit check: a call without an answer is "not judged".
    const shown = { pass: 'passed', fail: 'failed', not_judged: 'not judged' };
    $('check-rows').replaceChildren(
      ...(checks.length
        ? checks
            .slice()
            .reverse()
            .map((check) => {
              const running = check.state === 'running';
              const answered = check.status !== null;
              const verdict = running
                ? 'running'
                : check.passed === false
                  ? 'failed'
                  : shown[check.verdict] || 'not judged';
              const task = {
                response: answered ? {} : null,
                violations: check.violations,
                checks: check.platform,
              };
              return el(
                'tr',
                {},
                cell('Time', {}, time(check.at)),
                cell('Endpoint', {}, el('code', {}, check.endpoint)),
                cell('Trigger', {}, check.trigger),
                cell(
                  'Verdict',
                  {},
                  el(
                    'span',
                    {
                      class:
                        verdict === 'passed' ? 'pass' : verdict === 'failed' ? 'fail' : 'neutral',
                    },
                    verdict,
                  ),
                ),
                cell(
                  'Status',
                  {},
                  running
                    ? '-'
                    : check.headline ||
                        (answered
                          ? String(check.status)
                          : 'no answer from ' +
                            check.endpoint +
                            (check.error ? ` (${check.error})` : '')),
                ),
                cell(
                  'Checks',
                  {},
                  running
                    ? '-'
                    : CHECKS.map(
                        (name) => `${name} ${verdictOf(task, name).replace('_', ' ')}`,
                      ).join(', '),
                ),
              );
            })
        : [
            emptyRow(
              6,
              'No endpoint checks yet: they run when a quest with an API task is created through the public API, or on POST /__mock/endpoint-checks.',
            ),
          ]),
    );
  }

  // Reviews: the queue of claimed quests that wait for a person, and the review action.

  const MARK_TEXT = { star: 'with a star', flag: 'with a flag' };
  const statusText = (review) => review.status + (review.mark ? ` ${MARK_TEXT[review.mark]}` : '');
  state.reviews = [];
  state.reviewing = null;

  function lastEvent(review) {
    const event = review.events[review.events.length - 1];
    if (!event) return el('span', { class: 'muted' }, 'none yet');
    return el(
      'span',
      {},
      event.type +
        ': ' +
        event.data.message +
        (event.data.bonusXP ? ` (+${event.data.bonusXP} bonus xp)` : '') +
        ', by ' +
        (event.reviewer.name || event.reviewer.id) +
        ' at ' +
        time(event.createdAt),
    );
  }

  function submitted(review) {
    const parts = review.tasks.map(
      (task) =>
        task.type +
        ' ' +
        task.status +
        (task.value
          ? `: ${task.value}`
          : task.values
            ? `: ${task.values.join(', ')}`
            : task.fileUrls
              ? `: ${task.fileUrls.join(', ')}`
              : task.tweetId
                ? `: tweet ${task.tweetId}`
                : ''),
    );
    return parts.length ? parts.join('; ') : 'no task';
  }

  function reviewRow(review) {
    const member = review.user.name || '(no name)';
    return el(
      'tr',
      { 'data-review-id': review.id, 'data-status': review.status },
      cell(
        'Status',
        { class: 'outcome' },
        el('span', { class: `badge status-${review.status}` }, statusText(review)),
        review.demo ? el('span', { class: 'badge demo' }, 'demo') : null,
      ),
      cell(
        'Member',
        { class: 'member' },
        ...named(member, 'Member', [['Member id', review.user.id]]),
      ),
      cell(
        'Quest',
        {},
        ...named(review.quest.name, 'Quest', [
          ['Quest id', review.quest.id],
          ['Review id', review.id],
        ]),
      ),
      cell('Submitted', {}, submitted(review)),
      cell('Last event', {}, lastEvent(review)),
      cell('Claimed', {}, time(review.createdAt)),
      cell(
        'Action',
        {},
        el(
          'button',
          {
            type: 'button',
            onclick: () => openReview(review),
            'aria-label': `Review the claim of ${review.quest.name} by ${member}`,
          },
          'Review',
        ),
      ),
    );
  }

  async function loadReviews() {
    const status = $('review-status').value;
    state.reviews = await api('GET', `${base()}/reviews${status ? `?status=${status}` : ''}`);
    $('review-rows').replaceChildren(
      ...(state.reviews.length
        ? state.reviews.map(reviewRow)
        : [
            emptyRow(
              7,
              status === 'pending'
                ? 'No claim waits for review: a claim of a quest that does not validate itself (one with a task other than api) lands here.'
                : 'No review in this state.',
            ),
          ]),
    );
    $('review-count').textContent =
      state.reviews.length +
      ' review' +
      (state.reviews.length === 1 ? '' : 's') +
      ' shown, oldest first';
  }

  function openReview(review) {
    state.reviewing = review;
    const form = $('review-form');
    form.reset();
    $('review-form-title').textContent =
      'Review the claim of ' +
      review.quest.name +
      ' by ' +
      (review.user.name || '(no name)') +
      ' (' +
      statusText(review) +
      ')';
    syncBonus();
    form.hidden = false;
    $('review-form-title').focus();
  }

  /** Bonus xp goes only with a success and a star: the field is off otherwise. */
  function syncBonus() {
    const decision = new FormData($('review-form')).get('decision');
    $('review-bonus').disabled = decision !== 'success-star';
    $('review-comment').disabled = decision === 'pending';
  }

  async function sendReview(form) {
    const review = /** @type {Json} */ (state.reviewing);
    const data = new FormData(form);
    const [status, mark] = String(data.get('decision')).split('-');
    const body = { claimedQuestIds: [review.id], status };
    if (mark) body.mark = mark;
    const bonus = data.get('bonusXP');
    if (mark === 'star' && bonus) body.bonusXP = Number(bonus);
    const comment = String(data.get('comment') || '').trim();
    if (comment && status !== 'pending') body.comment = comment;
    say('review-outcome', 'Sending the review…');
    await api('POST', `${base()}/reviews`, body);
    form.hidden = true;
    say(
      'review-outcome',
      'Reviewed the claim of ' +
        review.quest.name +
        ' by ' +
        (review.user.name || '(no name)') +
        ': ' +
        status +
        (mark ? ` ${MARK_TEXT[mark]}` : '') +
        (body.bonusXP ? `, +${body.bonusXP} bonus xp` : '') +
        '.',
    );
    await Promise.all([loadReviews(), loadLeaderboard()]);
  }

  // Leaderboards: all time, or one sprint's.

  async function loadLeaderboard() {
    const select = $('leaderboard-scope');
    const chosen = select.value;
    const board = await api(
      'GET',
      `${base()}/leaderboard${chosen ? `?sprintId=${encodeURIComponent(chosen)}` : ''}`,
    );
    select.replaceChildren(
      el('option', { value: '' }, 'All time'),
      ...board.sprints.map((sprint) =>
        el(
          'option',
          { value: sprint.id },
          'Sprint ' +
            sprint.name +
            (sprint.current
              ? ' (running)'
              : ' (' +
                time(sprint.startingAt).slice(0, 10) +
                ' to ' +
                time(sprint.endingAt).slice(0, 10) +
                ')'),
        ),
      ),
    );
    select.value = chosen;
    $('leaderboard-rows').replaceChildren(
      ...(board.rows.length
        ? board.rows.map((row) =>
            el(
              'tr',
              { 'data-user-id': row.userId },
              cell('Place', { class: 'outcome' }, String(row.place)),
              cell(
                'Member',
                { class: 'member' },
                ...named(row.name || '(no name)', 'Member', [['Member id', row.userId]]),
              ),
              cell('Xp', { class: 'xp' }, String(row.xp)),
              cell('Quests', {}, String(row.numberOfQuests)),
            ),
          )
        : [
            emptyRow(4, chosen ? 'Nobody earned xp in this sprint yet.' : 'No member with xp yet.'),
          ]),
    );
    $('leaderboard-count').textContent =
      board.total +
      ' member' +
      (board.total === 1 ? '' : 's') +
      ' ranked' +
      (board.total > board.rows.length ? `, top ${board.rows.length} shown` : '');
  }

  // Wiring

  async function loadAll() {
    await loadQuests();
    await Promise.all([
      loadClaims(),
      loadDeliveries(),
      loadClock(),
      loadChecks(),
      loadReviews(),
      loadLeaderboard(),
      search(''),
    ]);
  }

  for (const button of /** @type {NodeListOf<HTMLElement>} */ (
    document.querySelectorAll('[data-close]')
  )) {
    button.addEventListener('click', () => {
      $(String(button.dataset.close)).hidden = true;
    });
  }
  $('community').addEventListener('change', (event) => {
    state.subdomain = event.target.value;
    state.member = null;
    loadAll().catch(showError);
  });
  $('member-search').addEventListener('submit', (event) => {
    event.preventDefault();
    search($('member-q').value).catch(failInto('selected-member'));
  });
  $('member-add').addEventListener('submit', (event) => {
    event.preventDefault();
    addMember(event.target).catch(failInto('member-add-outcome'));
  });
  $('clock-advance').addEventListener('submit', (event) => {
    event.preventDefault();
    advance(Number($('advance-by').value)).catch(failInto('clock-outcome'));
  });
  $('deliveries-refresh').addEventListener('click', () =>
    loadDeliveries().catch(failInto('delivery-outcome')),
  );
  $('journal-filters').addEventListener('input', renderClaims);
  $('journal-filters').addEventListener('submit', (event) => event.preventDefault());
  $('checks-refresh').addEventListener('click', () => loadChecks().catch(showError));
  $('reviews-refresh').addEventListener('click', () =>
    loadReviews().catch(failInto('review-outcome')),
  );
  $('review-status').addEventListener('change', () =>
    loadReviews().catch(failInto('review-outcome')),
  );
  $('review-filters').addEventListener('submit', (event) => event.preventDefault());
  $('leaderboard-scope').addEventListener('change', () => loadLeaderboard().catch(showError));
  $('leaderboard-filters').addEventListener('submit', (event) => event.preventDefault());
  $('review-form').addEventListener('change', syncBonus);
  $('review-form').addEventListener('submit', (event) => {
    event.preventDefault();
    sendReview(event.target).catch(failInto('review-outcome'));
  });

  async function loadCommunities() {
    if (!tokenRequired) return;
    const communities = await api('GET', '/__mock/communities');
    $('community').replaceChildren(
      ...communities.map((c) => el('option', { value: c.subdomain }, c.subdomain)),
    );
    state.subdomain = $('community').value;
  }

  function start() {
    loadCommunities()
      .then(() => {
        follow();
        return loadAll();
      })
      .catch(showError);
  }
  // Absent from the page when the control routes need no token.
  const tokenForm = document.getElementById('token-form');
  if (tokenForm && !state.token) {
    tokenForm.addEventListener('submit', (event) => {
      event.preventDefault();
      const token = $('token').value;
      state.token = token;
      sessionStorage.setItem('qk-control-token', token);
      tokenForm.hidden = true;
      start();
    });
  } else {
    if (tokenForm) tokenForm.hidden = true;
    start();
  }
})();
