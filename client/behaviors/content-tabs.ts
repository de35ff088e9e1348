/**
 * @module Tabs of guides (`:::: tabs` / `::: tab Title`): the server renders stacked titled sections, readable
 * without script; this turns each group into a tablist (arrow keys move between tabs), and choosing a tab picks
 * the tab of the same title in every other group of the page (Python everywhere).
 */

interface Group {
  buttons: HTMLButtonElement[];
  panels: HTMLElement[];
}

let counter = 0;

function select(group: Group, index: number, focus = false): void {
  group.buttons.forEach((b, i) => {
    b.setAttribute("aria-selected", String(i === index));
    b.tabIndex = i === index ? 0 : -1;
    group.panels[i].hidden = i !== index;
  });
  if (focus) group.buttons[index].focus();
}

/** Turns every `.tabs` block of the page into tabs. */
export function installTabs(): void {
  const groups: Group[] = [];
  for (const box of document.querySelectorAll<HTMLElement>(".tabs")) {
    const panels = [...box.querySelectorAll<HTMLElement>(":scope > .tab")];
    if (panels.length < 2) continue;
    const list = document.createElement("div");
    list.className = "tablist";
    list.setAttribute("role", "tablist");
    const group: Group = { buttons: [], panels };
    panels.forEach((panel, i) => {
      const title = panel.querySelector<HTMLElement>(":scope > .tab-title");
      const id = `tab-${++counter}`;
      const button = document.createElement("button");
      button.type = "button";
      button.id = `${id}-t`;
      button.setAttribute("role", "tab");
      button.setAttribute("aria-controls", id);
      button.textContent = title?.textContent ?? `Tab ${i + 1}`;
      if (title) title.hidden = true;
      panel.id = id;
      panel.setAttribute("role", "tabpanel");
      panel.setAttribute("aria-labelledby", button.id);
      button.addEventListener("click", () => {
        for (const g of groups) {
          const same = g.buttons.findIndex((b) => b.textContent === button.textContent);
          if (same >= 0) select(g, same);
        }
      });
      button.addEventListener("keydown", (e) => {
        const step = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
        if (step) select(group, (i + step + panels.length) % panels.length, true);
      });
      list.appendChild(button);
      group.buttons.push(button);
    });
    box.insertBefore(list, box.firstChild);
    box.classList.add("tabs-on");
    select(group, 0);
    groups.push(group);
  }
}
