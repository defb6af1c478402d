// Drives a godot-mcp binary over stdio with the official TypeScript SDK v1
// client (@modelcontextprotocol/sdk, pinned in package.json), the client
// Claude Code, the MCP Inspector and most MCP clients are built on. Its
// callTool validates structuredContent against the tool's outputSchema, so
// whatever it returns here is what those clients hand their agent.
//
//   node sdkclient.mjs PLAN_JSON
//
// PLAN_JSON: {"command": "/path/godot-mcp", "args": [], "env": {"K": "V"},
//             "steps": [{"call": "tool", "arguments": {...}},
//                       {"call": "tool", "until_ok": true, "timeout_ms": 20000}]}
// until_ok repeats the call (every 100 ms) until it succeeds or the timeout.
// A step {"read": "godot://..."} reads a resource, {"prompt": name,
// "arguments": {...}} gets a prompt (their results are the SDK's answers).
// {"check_contract": tool, "of": i, "merge": {...}} validates the
// structuredContent of step i (with merge's top-level members replaced)
// against the tool's full output schema from godot://tool/<tool>, with the
// SDK's own validator: result {"valid", "errorMessage"}.
// The server inherits this process's environment plus env.
// Prints one JSON document: {"tools": [names], "resources": [uris],
// "templates": [uri templates], "prompts": [names], "steps": [{"call",
// "result"} or {"call", "thrown": {"code", "message"}}]}.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";

const plan = JSON.parse(process.argv[2] ?? "{}");
const transport = new StdioClientTransport({
	command: plan.command,
	args: plan.args ?? [],
	env: { ...process.env, ...(plan.env ?? {}) },
	stderr: "inherit",
});
const client = new Client({ name: "godot-mcp-sdkclient", version: "1.0.0" });
await client.connect(transport);

const out = { tools: [], steps: [] };
// callTool validates results against the output schemas it has seen in
// tools/list, as a client does after listing the tools.
const listed = await client.listTools();
out.tools = listed.tools.map((t) => t.name);
out.resources = (await client.listResources()).resources.map((r) => r.uri);
out.templates = (await client.listResourceTemplates()).resourceTemplates.map((r) => r.uriTemplate);
out.prompts = (await client.listPrompts()).prompts.map((p) => p.name);

async function call(name, args, step) {
	try {
		if (step?.read) {
			return { call: step.read, result: await client.readResource({ uri: step.read }) };
		}
		if (step?.check_contract) {
			const read = await client.readResource({ uri: "godot://tool/" + step.check_contract });
			const schema = JSON.parse(read.contents[0].text).output_schema;
			const structured = { ...out.steps[step.of].result.structuredContent, ...(step.merge ?? {}) };
			const verdict = new AjvJsonSchemaValidator().getValidator(schema)(structured);
			return { call: "contract:" + step.check_contract, result: { valid: verdict.valid, errorMessage: verdict.errorMessage ?? null } };
		}
		if (step?.prompt) {
			return { call: step.prompt, result: await client.getPrompt({ name: step.prompt, arguments: args ?? {} }) };
		}
		return { call: name, result: await client.callTool({ name, arguments: args ?? {} }) };
	} catch (e) {
		return { call: step?.read ?? step?.prompt ?? step?.check_contract ?? name, thrown: { code: e.code ?? null, message: String(e.message ?? e) } };
	}
}

for (const step of plan.steps ?? []) {
	let r = await call(step.call, step.arguments, step);
	if (step.until_ok) {
		const deadline = Date.now() + (step.timeout_ms ?? 20000);
		while ((r.thrown || r.result?.isError) && Date.now() < deadline) {
			await new Promise((res) => setTimeout(res, 100));
			r = await call(step.call, step.arguments, step);
		}
	}
	out.steps.push(r);
}

await client.close();
process.stdout.write(JSON.stringify(out) + "\n");
