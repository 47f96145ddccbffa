-- Neovim (0.7+) headless: starts lockjaw's language server through Neovim's own LSP client, opens
-- a Java file, waits for the diagnostics Neovim received and writes them, one a line, to
-- $LOCKJAW_OUT as "line:column:severity:source:code:message", then stops the server and quits.
local jar = os.getenv('LOCKJAW_LSP_JAR')
local java = os.getenv('LOCKJAW_JAVA')
local file = os.getenv('LOCKJAW_FILE')
local out = assert(io.open(os.getenv('LOCKJAW_OUT'), 'w'))

local published = false
local client_id = vim.lsp.start_client({
  name = 'lockjaw',
  cmd = { java, '-jar', jar },
  root_dir = vim.fn.fnamemodify(file, ':h'),
  handlers = {
    ['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
      vim.lsp.diagnostic.on_publish_diagnostics(err, result, ctx, config)
      published = true
    end,
  },
})
vim.cmd('edit ' .. vim.fn.fnameescape(file))
vim.lsp.buf_attach_client(0, client_id)

if not vim.wait(120000, function() return published end, 50) then
  out:write('TIMEOUT\n')
end
for _, d in ipairs(vim.diagnostic.get(0)) do
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or ''
  out:write(string.format('%d:%d:%d:%s:%s:%s\n', d.lnum + 1, d.col + 1, d.severity, d.source or '', code,
    (d.message:gsub('\n', ' '))))
end

vim.lsp.stop_client(client_id)
local stopped = vim.wait(20000, function() return vim.lsp.client_is_stopped(client_id) end, 50)
out:write('stopped=' .. tostring(stopped) .. '\n')
out:close()
vim.cmd('qa!')
