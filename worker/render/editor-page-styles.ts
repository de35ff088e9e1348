/** @module The editor page's CSS, inlined by editor-page.tsx (one request fewer; the editor is a single screen). */

export const EDITOR_STYLES = `
:root{--bg:#fff;--fg:#1b1f24;--muted:#5b6470;--line:#d8dde3;--panel:#f6f8fa;--accent:#0b5cad;--err:#b42318;--warn:#9a6700;--info:#0b5cad;--flash:#fff3b0}
@media (prefers-color-scheme:dark){:root{--bg:#0f1216;--fg:#e6e9ed;--muted:#9aa4ae;--line:#2c333b;--panel:#161b21;--accent:#6cb1ff;--err:#ff7b72;--warn:#e3b341;--info:#6cb1ff;--flash:#4a3f00}}
*{box-sizing:border-box}
html,body{margin:0;height:100%;background:var(--bg);color:var(--fg);font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif}
#editor-root{height:100%}
button,input,select,textarea{font:inherit;color:inherit}
button{cursor:pointer;border:1px solid var(--line);background:var(--panel);border-radius:6px;padding:4px 10px}
button[aria-pressed=true]{background:var(--accent);color:#fff;border-color:var(--accent)}
button:disabled{opacity:.6;cursor:progress}
input,select,textarea{border:1px solid var(--line);background:var(--bg);border-radius:6px;padding:5px 8px;width:100%}
input[type=checkbox]{width:auto;justify-self:start}
:focus-visible{outline:2px solid var(--accent);outline-offset:1px}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
.ed-status{padding:24px;color:var(--muted)}
.ed-panel{max-width:560px;margin:48px auto;padding:24px;border:1px solid var(--line);border-radius:10px;background:var(--panel)}
.ed-panel label{display:block;margin:12px 0}
.ed-error{color:var(--err)}
.ed-muted{color:var(--muted)}
.ed-link{border:none;background:none;color:var(--accent);padding:0 4px;text-decoration:underline}
.ed-api-list{padding-left:18px}
.ed-app{display:flex;flex-direction:column;height:100%}
.ed-toolbar{display:flex;flex-wrap:wrap;gap:8px;align-items:center;padding:8px 12px;border-bottom:1px solid var(--line);background:var(--panel)}
.ed-home{font-weight:600;color:inherit;text-decoration:none}
.ed-api{font-family:ui-monospace,monospace;color:var(--muted)}
.ed-modes{display:inline-flex;gap:0}
.ed-modes button{border-radius:0}.ed-modes button:first-child{border-radius:6px 0 0 6px}.ed-modes button:last-child{border-radius:0 6px 6px 0}
.ed-spacer{flex:1}
.ed-primary{background:var(--accent);color:#fff;border-color:var(--accent)}
.ed-notice{margin:0;padding:6px 12px;border-bottom:1px solid var(--line);display:flex;justify-content:space-between}
.ed-notice-error{color:var(--err)}
.ed-main{display:flex;flex:1;min-height:0}
.ed-source{flex:1;min-width:0;min-height:0;overflow:hidden}
.ed-source[hidden]{display:none}
.ed-source-host{height:100%}
.ed-visual{flex:1;min-width:0;min-height:0;border-left:1px solid var(--line)}
.ed-mode-visual .ed-visual{border-left:none}
.ed-visual-inner{display:grid;grid-template-columns:minmax(200px,280px) minmax(0,1fr);height:100%}
.ed-nav-col{display:flex;flex-direction:column;min-height:0;border-right:1px solid var(--line);background:var(--panel)}
.ed-nav{overflow:auto;flex:1;padding:8px}
.ed-add{padding:8px;border-top:1px solid var(--line)}.ed-add>*+*{margin-top:6px}.ed-add h4{margin:0;font-size:12px;text-transform:uppercase;color:var(--muted)}.ed-add select{width:auto;flex:none}.ed-add .ed-inline input{width:0;min-width:0;flex:1}.ed-add button{flex:none}
.ed-nav h4{margin:12px 4px 4px;font-size:12px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
.ed-nav ul{list-style:none;margin:0;padding:0}
.ed-nav-item{display:flex;gap:6px;align-items:center;width:100%;text-align:left;border:none;background:none;padding:3px 6px;border-radius:5px;overflow:hidden;white-space:nowrap;text-overflow:ellipsis}
.ed-nav-item.ed-selected{background:var(--bg);outline:1px solid var(--line)}
.ed-method{font:600 10px ui-monospace,monospace;padding:1px 4px;border-radius:4px;background:var(--line)}
.ed-m-get{color:#1a7f37}.ed-m-post{color:#0b5cad}.ed-m-put,.ed-m-patch{color:#9a6700}.ed-m-delete{color:#b42318}
.ed-deprecated{text-decoration:line-through}
.ed-count{margin-left:auto;font-size:11px;border-radius:8px;padding:0 6px;border:1px solid currentColor}
.ed-form{overflow:auto;padding:12px 20px 40vh}
.ed-form h2{font-size:17px;margin:4px 0 12px;display:flex;gap:8px;align-items:center}
.ed-form h3{font-size:14px;margin:18px 0 6px}
.ed-form-grid{display:grid;gap:8px;max-width:820px}
.ed-field{display:grid;gap:3px}
.ed-label{font-size:12px;color:var(--muted);display:flex;gap:6px;align-items:center}
.ed-has-problems input,.ed-has-problems textarea,.ed-has-problems select{border-color:var(--warn)}
.ed-badge{font-size:11px;border-radius:8px;padding:0 6px;border:1px solid currentColor}
.ed-sev-error{color:var(--err)}.ed-sev-warn{color:var(--warn)}.ed-sev-info,.ed-sev-hint{color:var(--info)}
fieldset{border:1px solid var(--line);border-radius:8px;padding:8px 12px;display:grid;gap:8px}
.ed-inline{display:flex;gap:6px;align-items:center}.ed-inline input{width:auto}
.ed-btn{justify-self:start}.ed-danger{color:var(--err)}
.ed-flash{animation:ed-flash 1.2s}
@keyframes ed-flash{from{background:var(--flash)}to{background:transparent}}
.ed-tree .ed-node{margin-left:14px;border-left:1px dotted var(--line);padding-left:8px}
.ed-tree>.ed-node{margin-left:0;border-left:none;padding-left:0}
.ed-node-head{display:flex;gap:6px;align-items:center;padding:2px 0}
.ed-node-body{display:grid;gap:6px;padding:4px 0 8px 20px;max-width:760px}
.ed-twisty{border:none;background:none;padding:0 4px}
.ed-snippet{overflow:hidden;white-space:nowrap;text-overflow:ellipsis;min-width:0;font-size:12px}
.ed-req{font-size:11px;color:var(--err)}.ed-dep{font-size:11px;color:var(--warn)}
.ed-problems{border-top:1px solid var(--line);background:var(--panel);max-height:32vh;display:flex;flex-direction:column}
.ed-problems header{display:flex;gap:14px;align-items:center;padding:4px 12px}
.ed-problems-scroll{overflow:auto}
.ed-problems table{border-collapse:collapse;width:100%}
.ed-problems th{text-align:left;font-size:12px;color:var(--muted);padding:2px 12px;position:sticky;top:0;background:var(--panel)}
.ed-problems td{padding:2px 12px;border-top:1px solid var(--line);vertical-align:top}
.ed-problem{cursor:pointer}.ed-problem:hover,.ed-problem:focus{background:var(--bg)}
@media (max-width:900px){.ed-mode-split .ed-main{flex-direction:column}.ed-visual{border-left:none;border-top:1px solid var(--line)}.ed-visual-inner{grid-template-columns:1fr}.ed-nav{max-height:30vh}}
`;
