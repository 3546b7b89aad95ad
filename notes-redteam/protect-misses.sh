#!/usr/bin/env bash
# Class: files other programs run later with the user's rights (issue 30
# §3). Each name below is read by a real tool, from the project, and makes
# it run a program the file names, on an action of the user's that is not
# "run this project" (open an agent or editor, git commit through a hook
# manager, cd). None is in [sandbox] protect; the default sandbox lets a
# command write each. Prints WRITABLE per name (checked from outside).
. "$(dirname "$0")/env.sh"
names=(
  .aider.conf.yml            # aider: lint-cmd/test-cmd, run after each edit (auto-lint is on by default)
  .continue/mcpServers/x.yaml # Continue: project MCP servers (command)
  .roo/mcp.json              # Roo Code: project MCP servers
  .kilocode/mcp.json         # Kilo Code: project MCP servers
  .amazonq/mcp.json          # Amazon Q Developer: workspace MCP servers
  .windsurf/workflows/x.md   # Windsurf (its MCP config is global; workflows drive its terminal)
  crush.json .crush.json     # Crush: MCP servers and LSP commands
  .helix/languages.toml      # Helix: language-server commands, started on open
  .nvim.lua .exrc            # Neovim with 'exrc' (asks trust once per content), Vim with 'exrc'
  proj.code-workspace        # VS Code: tasks (runOn folderOpen) and settings, like .vscode/
  .lintstagedrc lint-staged.config.js  # run by husky/lefthook hooks: npx lint-staged
  commitlint.config.js       # run (JavaScript) by a commit-msg hook: npx commitlint --edit
  .huskyrc .huskyrc.json husky.config.js  # husky 4: the hooks themselves
  .overcommit.yml hk.pkl captainhook.json .rusty-hook.toml  # other hook managers' configuration
  .pnpmfile.cjs              # pnpm: JavaScript run by every pnpm install
  .tool-versions             # asdf/mise: "python path:./x" puts a folder of the project first
  .github/copilot-instructions.md AGENTS.md CLAUDE.md GEMINI.md  # instructions the next agent session follows
)
boxed "for n in ${names[*]}; do mkdir -p \"\$(dirname \"\$n\")\" 2>/dev/null; echo planted >\"\$n\" 2>/dev/null; done; true" >/dev/null
for n in "${names[@]}"; do grep -qs planted "$REPO/$n" && echo "WRITABLE $n"; done
