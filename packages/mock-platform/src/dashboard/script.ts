/**
 * The dashboard's script, served as `/__mock/dashboard/app.js`. Plain browser JavaScript, no build
 * step and no library: it reads and drives the mock through the control routes, and writes every
 * value with `textContent`, never as HTML, so data from the mock (member names, endpoint answers)
 * cannot run as code in the page.
 */
export const DASHBOARD_SCRIPT = String.raw`'use strict';
(() => {
  const CHECKS = ['response_time', 'message_format', 'status_code'];
  const $ = (id) => document.getElementById(id);
  const state = {
    subdomain: $('community').value,
    member: null,
    quests: [],
    token: sessionStorage.getItem('qk-control-token'),
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
    if (!response.ok) throw new Error((data && data.message) || method + ' ' + path + ': ' + response.status);
    $('error').hidden = true;
    return data;
  }

  const base = () => '/__mock/communities/' + encodeURIComponent(state.subdomain);
  const time = (iso) => (iso ? new Date(iso).toISOString().replace('T', ' ').slice(0, 19) : '-');
  const short = (id) => (id ? id.slice(0, 8) + '…' : '-');
  const questName = (id) => (state.quests.find((quest) => quest.id === id) || {}).name || short(id);
  const pretty = (value) => {
    if (typeof value !== 'string') return JSON.stringify(value, null, 2);
    try { return JSON.stringify(JSON.parse(value), null, 2); } catch { return value; }
  };
  const quoteShell = (text) => "'" + text.replaceAll("'", "'\\''") + "'";

  // Verification calls

  function checkCells(call) {
    const failed = new Set(call.violations.filter((v) => v.severity === 'error').map((v) => v.check));
    return el('ul', { class: 'list' }, ...CHECKS.map((check) =>
      el('li', {}, el('span', { class: failed.has(check) ? 'fail' : 'pass' }, failed.has(check) ? 'fail' : 'pass'), ' ', check)));
  }

  function callRow(call) {
    const status = call.response ? String(call.response.status) : call.error || 'no answer';
    return el('tr', { 'data-request-id': call.requestId },
      el('td', {}, el('button', { type: 'button', class: 'secondary', onclick: () => openCall(call), 'aria-label': 'Details of the call at ' + time(call.at) }, time(call.at))),
      el('td', {}, questName(call.questId), el('br'), el('code', {}, short(call.taskId))),
      el('td', {}, el('code', {}, short(call.userId))),
      el('td', {}, el('code', {}, call.requestId)),
      el('td', {}, el('span', { class: call.outcome === 'fault' ? 'fail' : 'pass' }, status), ' ', call.outcome),
      el('td', {}, Math.round(call.durationMs) + ' ms'),
      el('td', { class: 'message' }, call.message || call.error || ''),
      el('td', {}, checkCells(call)));
  }

  function openCall(call) {
    $('call-detail-title').textContent = 'Call ' + call.requestId;
    $('call-headers').textContent = pretty(call.request.headers);
    $('call-body').textContent = pretty(call.request.body);
    $('call-answer').textContent = call.response
      ? call.response.status + ' ' + (call.response.contentType || '') + '\n' + pretty(call.response.body)
      : call.error || 'no answer';
    const headers = Object.entries(call.request.headers).map(([name, value]) =>
      ' -H ' + quoteShell(name + ': ' + (name === 'x-api-key' ? '$QUEST_API_KEY' : value)));
    $('call-curl').textContent = 'curl -X POST ' + quoteShell(call.request.url) + headers.join('') +
      ' -d ' + quoteShell(JSON.stringify(call.request.body));
    const detail = $('call-detail');
    detail.hidden = false;
    detail.focus();
  }

  async function loadCalls() {
    const calls = await api('GET', '/__mock/calls?subdomain=' + encodeURIComponent(state.subdomain));
    $('calls').replaceChildren(...calls.reverse().map(callRow));
  }

  function addCall(call) {
    if (call.subdomain !== state.subdomain) return;
    $('calls').prepend(callRow(call));
    $('live').textContent = 'Live: last call ' + time(call.at) + ' (' + call.outcome + ')';
  }

  function follow() {
    if (tokenRequired) {
      // EventSource cannot send the token header: poll instead.
      $('live').textContent = 'Refreshing every 2 s';
      setInterval(() => loadCalls().catch(showError), 2000);
      return;
    }
    const events = new EventSource('/__mock/events');
    events.addEventListener('ready', () => { $('live').textContent = 'Live: new calls appear here'; });
    events.addEventListener('call', (event) => {
      addCall(JSON.parse(event.data));
      loadDeliveries().catch(showError);
    });
    events.onerror = () => { $('live').textContent = 'Reconnecting…'; };
  }

  // Deliveries

  async function loadDeliveries() {
    const records = await api('GET', '/__mock/webhooks/deliveries');
    $('delivery-rows').replaceChildren(...records.map((record) => el('tr', { 'data-delivery-id': record.id },
      el('td', {}, time(record.createdAt)),
      el('td', {}, record.webhookName || short(record.webhookId)),
      el('td', {}, record.eventType),
      el('td', {}, el('span', { class: record.status === 'success' ? 'pass' : record.status === 'pending' ? '' : 'fail' }, record.status)),
      el('td', { class: 'tries' }, String(record.tries)),
      el('td', {}, record.status === 'failed' ? time(record.retryAt) : '-'),
      el('td', {},
        el('button', { type: 'button', class: 'secondary', onclick: () => openDelivery(record.id).catch(showError) }, 'Details'), ' ',
        el('button', { type: 'button', onclick: () => replay(record.id).catch(showError) }, 'Replay')))));
  }

  async function openDelivery(id) {
    const record = await api('GET', '/__mock/webhooks/deliveries/' + encodeURIComponent(id));
    $('delivery-detail-title').textContent = 'Delivery ' + record.id;
    $('delivery-summary').textContent = record.eventType + ': ' + record.status + ', ' + record.tries +
      ' tries' + (record.status === 'failed' ? ', next retry ' + time(record.retryAt) : '');
    $('delivery-attempts').replaceChildren(...record.attempts.map((attempt) => el('li', {},
      'try ' + attempt.try + ' at ' + time(attempt.at) + ': ' + (attempt.status === null ? attempt.error : 'HTTP ' + attempt.status) +
      ' in ' + Math.round(attempt.durationMs) + ' ms')));
    $('delivery-payload').textContent = pretty(record.payload);
    const detail = $('delivery-detail');
    detail.dataset.deliveryId = id;
    detail.hidden = false;
    detail.focus();
  }

  async function replay(id) {
    const answer = await api('POST', '/__mock/webhooks/deliveries/' + encodeURIComponent(id) + '/replay');
    $('delivery-outcome').textContent = 'Replayed as ' + answer.deliveries.map((d) => d.id + ' (' + d.status + ')').join(', ');
    await loadDeliveries();
  }

  // Members and connect

  function memberItem(user) {
    return el('li', { 'data-user-id': user.id },
      el('strong', {}, user.name || '(no name)'), el('code', {}, user.id),
      user.discordHandle ? el('span', {}, 'Discord ' + user.discordHandle) : null,
      user.email ? el('span', {}, user.email) : null,
      el('span', {}, 'level ' + user.level),
      el('button', { type: 'button', class: 'secondary', onclick: () => selectMember(user).catch(showError), 'aria-label': 'Select ' + (user.name || user.id) }, 'Select'));
  }

  async function search(q) {
    const members = await api('GET', base() + '/members?q=' + encodeURIComponent(q));
    $('member-results').replaceChildren(...(members.length ? members.map(memberItem) : [el('li', {}, 'No member found.')]));
  }

  async function selectMember(user) {
    state.member = user;
    $('selected-member').textContent = 'Selected member: ' + (user.name || '(no name)') + ' (' + user.id + ')';
    renderQuests();
    const connections = await api('GET', base() + '/users/' + encodeURIComponent(user.id) + '/connections');
    $('connection-list').replaceChildren(...(connections.length
      ? connections.map((link) => el('li', {}, 'Linked ' + link.identifier + ' for ' + link.redirectUrl + ' on ' + time(link.createdAt)))
      : [el('li', {}, 'No connect association yet.')]));
    const connectQuests = state.quests.filter((quest) => quest.tasks.some((task) => task.identifications.includes('svc-connect')));
    $('connect-links').replaceChildren(...connectQuests.map((quest) => el('li', {},
      el('a', { href: '/__mock/connect/start?subdomain=' + encodeURIComponent(state.subdomain) + '&questId=' + encodeURIComponent(quest.id) + '&userId=' + encodeURIComponent(user.id), class: 'connect-link' },
        'Start the connect flow of "' + quest.name + '" as this member'))));
    $('connections').hidden = false;
  }

  async function addMember(form) {
    const body = {};
    for (const [name, value] of new FormData(form)) {
      if (value === '') continue;
      body[name] = name === 'xp' ? Number(value) : value;
    }
    const answer = await api('POST', base() + '/members', body);
    $('member-add-outcome').textContent = 'Added ' + (answer.user.name || answer.user.id) + ' (' + answer.user.id + ')';
    form.reset();
    await selectMember(answer.user);
    await loadDeliveries();
  }

  // Quests and claims

  function renderQuests() {
    $('quest-list').replaceChildren(...state.quests.map((quest) => el('li', { 'data-quest-id': quest.id },
      el('strong', {}, quest.name), el('code', {}, quest.id), el('span', {}, quest.recurrence),
      quest.published ? null : el('span', {}, '(not published)'),
      el('button', {
        type: 'button',
        disabled: !state.member,
        onclick: () => claim(quest).catch(showError),
        'aria-label': 'Claim as selected member: ' + quest.name,
      }, 'Claim as selected member'))));
  }

  async function loadQuests() {
    state.quests = await api('GET', base() + '/quests');
    renderQuests();
  }

  async function claim(quest) {
    const result = await api('POST', base() + '/quests/' + encodeURIComponent(quest.id) + '/claims', { userId: state.member.id });
    const box = $('claim-outcome');
    box.replaceChildren(
      el('h3', {}, 'Claim of "' + quest.name + '" as ' + (state.member.name || state.member.id)),
      el('p', {}, el('span', { class: result.status === 'success' ? 'pass' : 'fail' }, result.status), ' (' + result.reason + '): ' + result.message),
      el('p', {}, 'Request id ', el('code', {}, result.requestId)));
    box.hidden = false;
  }

  // Clock and endpoint checks

  async function loadClock() {
    const clock = await api('GET', '/__mock/clock');
    $('clock-now').textContent = 'Platform time ' + time(clock.now) + ' (' + clock.mode + ' clock)';
    $('clock-state').textContent = 'Now ' + time(clock.now) + ', ' + clock.mode + ' clock, ' + clock.pendingRetries + ' retries waiting.' +
      (clock.mode === 'manual' ? '' : ' The system clock cannot be moved: start the mock with --clock manual to advance it here.');
    $('clock-advance').hidden = clock.mode !== 'manual';
  }

  async function advance(ms) {
    const report = await api('POST', '/__mock/clock/advance', { ms });
    $('clock-outcome').textContent = 'Advanced to ' + time(report.now) + ': ' + report.ran + ' retries ran, ' + report.pending + ' waiting.';
    await Promise.all([loadClock(), loadDeliveries()]);
    const open = $('delivery-detail');
    if (!open.hidden) await openDelivery(open.dataset.deliveryId);
  }

  async function loadChecks() {
    const checks = await api('GET', '/__mock/endpoint-checks');
    $('check-rows').replaceChildren(...checks.slice().reverse().map((check) => {
      const failed = new Set(check.violations.filter((v) => v.severity === 'error').map((v) => v.check));
      return el('tr', {},
        el('td', {}, time(check.at)),
        el('td', {}, el('code', {}, check.endpoint)),
        el('td', {}, check.trigger),
        el('td', {}, el('span', { class: check.passed ? 'pass' : 'fail' }, check.state === 'running' ? 'running' : check.passed ? 'passed' : 'failed')),
        el('td', {}, check.status === null ? check.error || '-' : String(check.status)),
        el('td', {}, CHECKS.map((name) => name + ' ' + (failed.has(name) ? 'fail' : 'pass')).join(', ')));
    }));
  }

  // Wiring

  async function loadAll() {
    await loadQuests();
    await Promise.all([loadCalls(), loadDeliveries(), loadClock(), loadChecks(), search('')]);
  }

  for (const button of document.querySelectorAll('[data-close]')) {
    button.addEventListener('click', () => { $(button.dataset.close).hidden = true; });
  }
  $('community').addEventListener('change', (event) => {
    state.subdomain = event.target.value;
    state.member = null;
    loadAll().catch(showError);
  });
  $('member-search').addEventListener('submit', (event) => { event.preventDefault(); search($('member-q').value).catch(showError); });
  $('member-add').addEventListener('submit', (event) => { event.preventDefault(); addMember(event.target).catch(showError); });
  $('clock-advance').addEventListener('submit', (event) => { event.preventDefault(); advance(Number($('advance-by').value)).catch(showError); });
  $('deliveries-refresh').addEventListener('click', () => loadDeliveries().catch(showError));
  $('checks-refresh').addEventListener('click', () => loadChecks().catch(showError));

  function start() {
    follow();
    loadAll().catch(showError);
  }
  const tokenForm = $('token-form');
  if (tokenForm && !state.token) {
    tokenForm.addEventListener('submit', (event) => {
      event.preventDefault();
      state.token = $('token').value;
      sessionStorage.setItem('qk-control-token', state.token);
      tokenForm.hidden = true;
      start();
    });
  } else {
    if (tokenForm) tokenForm.hidden = true;
    start();
  }
})();
`;
