/**
 * The dashboard's stylesheet. System fonts, contrast above 4.5:1 for text (dark grey on white,
 * white on dark blue), a visible focus ring, disabled controls that look disabled, and tables
 * whose rows become cards on a narrow screen (outcome, message and member first) instead of
 * widening the page.
 */
export const DASHBOARD_CSS = `
:root { color-scheme: light; --ink: #1f2328; --muted: #4f5661; --line: #d0d7de; --accent: #0b4f9c;
  --ok: #116329; --bad: #a40e26; --bg: #ffffff; --soft: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
header { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; padding: .75rem 1rem; background: var(--accent); color: #fff; }
header h1 { font-size: 1.1rem; margin: 0 auto 0 0; }
header label { font-weight: 600; }
header .muted { color: #fff; margin: 0; }
nav { display: flex; flex-wrap: wrap; gap: .25rem 1rem; padding: .5rem 1rem; border-bottom: 1px solid var(--line); background: var(--soft); }
nav a { color: var(--accent); }
main { padding: 1rem; max-width: 110rem; margin: 0 auto; }
section { margin: 0 0 2rem; }
h2 { font-size: 1.25rem; margin: 0 0 .5rem; }
h3 { font-size: 1.05rem; margin: .25rem 0; }
h4 { font-size: .95rem; margin: .75rem 0 .25rem; }
.muted { color: var(--muted); }
.error { color: var(--bad); font-weight: 600; }
.scroll { overflow-x: auto; border: 1px solid var(--line); border-radius: 6px; }
table { border-collapse: collapse; width: 100%; min-width: 44rem; }
th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--soft); font-weight: 600; }
td.message { max-width: 28rem; overflow-wrap: break-word; }
td { overflow-wrap: break-word; }
td.outcome .reason { display: block; font-size: .85rem; }
td button { white-space: nowrap; }
tr.empty td { color: var(--muted); font-style: italic; }
code { overflow-wrap: break-word; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .85rem; }
pre { background: var(--soft); padding: .5rem; border-radius: 6px; overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: .75rem; margin: .75rem 0; background: var(--bg); }
.list { list-style: none; padding: 0; margin: .5rem 0; }
.list > li { display: flex; flex-wrap: wrap; gap: .25rem .75rem; align-items: center; padding: .4rem 0; border-bottom: 1px solid var(--line); }
td .list { margin: 0; }
td .list > li { padding: 0; border: 0; white-space: nowrap; flex-wrap: nowrap; }
.fields { display: grid; grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr)); gap: .5rem; margin-bottom: .5rem; }
.fields label { display: flex; flex-direction: column; font-weight: 600; }
fieldset { border: 1px solid var(--line); border-radius: 6px; margin: 0 0 .5rem; display: flex; flex-wrap: wrap; gap: .25rem 1rem; }
legend { font-weight: 600; }
textarea { font: inherit; padding: .3rem .5rem; border: 1px solid #8c959f; border-radius: 6px; color: var(--ink); }
.status-pending { color: #6e3b00; background: #fff8c5; }
.status-success { color: var(--ok); background: #dafbe1; }
.status-fail { color: var(--bad); background: #ffebe9; }
input, select, button { font: inherit; padding: .3rem .5rem; border: 1px solid #8c959f; border-radius: 6px; color: var(--ink); background: #fff; }
button { background: var(--accent); color: #fff; border-color: var(--accent); cursor: pointer; }
button.secondary { background: #fff; color: var(--accent); }
button:disabled, button:disabled:hover { background: #eaeef2; color: #4f5661; border-color: #afb8c1; border-style: dashed; cursor: not-allowed; }
.hint { background: var(--soft); border-left: 4px solid var(--accent); padding: .4rem .6rem; }
.badge { display: inline-block; padding: 0 .45rem; border-radius: 1rem; border: 1px solid currentColor; font-size: .85rem; font-weight: 600; white-space: nowrap; }
.badge.demo { color: #6e3b00; background: #fff8c5; }
.outcome-claimed { color: var(--ok); background: #dafbe1; }
.outcome-in-review { color: #6e3b00; background: #fff8c5; }
.outcome-not-verified { color: #6e3b00; background: #fff8c5; }
.outcome-refused { color: #4f5661; background: var(--soft); }
.outcome-endpoint-fault, .outcome-key-refused { color: var(--bad); background: #ffebe9; }
.neutral { color: var(--muted); font-weight: 600; }
.filters { display: grid; grid-template-columns: repeat(auto-fit, minmax(11rem, 1fr)); gap: .5rem; margin: .5rem 0; }
.filters > div { display: flex; flex-direction: column; }
.filters label { font-weight: 600; }
details.ids { display: inline-block; margin-left: .35rem; font-size: .85rem; }
details.ids summary { cursor: pointer; color: var(--accent); }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: .1rem .75rem; margin: .25rem 0; }
.facts dt { font-weight: 600; }
.facts dd { margin: 0; overflow-wrap: break-word; }
.answers { display: grid; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); gap: .75rem; }
h5 { font-size: .9rem; margin: .5rem 0 .25rem; }
.task { border-top: 1px solid var(--line); margin-top: .5rem; }
.action-result { margin: .35rem 0; }
.attempt-explanation { margin: .25rem 0 0; font-size: .9rem; }
td.last-try .attempt-explanation { display: block; min-width: 14rem; }
.answer-body q { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .85rem; }
:focus-visible { outline: 3px solid #f2a900; outline-offset: 2px; }
.pass { color: var(--ok); font-weight: 600; }
.fail { color: var(--bad); font-weight: 600; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 1rem; top: 1rem; background: #fff; color: var(--accent); padding: .5rem; z-index: 1; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
@media (max-width: 40rem) {
  main { padding: .5rem; }
  header h1 { width: 100%; }
  .scroll { border: 0; overflow: visible; }
  table.cards { min-width: 0; }
  table.cards thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  table.cards, table.cards tbody, table.cards tr, table.cards td { display: block; width: 100%; }
  table.cards tr { border: 1px solid var(--line); border-radius: 6px; margin: 0 0 .6rem; padding: .4rem .6rem; }
  table.cards td { border: 0; padding: .15rem 0; max-width: none; }
  table.cards td[data-label]::before { content: attr(data-label) ": "; font-weight: 600; color: var(--muted); }
  table.cards td.outcome::before, table.cards td.message::before { content: none; }
  table.cards td.outcome .reason { display: inline; margin-left: .4rem; }
  table.cards td.message { font-weight: 600; }
}
`;
