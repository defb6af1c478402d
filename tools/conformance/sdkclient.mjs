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
// {"compile_schemas": true} compiles, with the SDK's own validator (the ajv
// its client compiles every listed outputSchema with), each listed tool's
// inputSchema and outputSchema and the input_schema and output_schema of its
// full contract (godot://tool/<name>): result {"tools": n, "failures":
// [{"tool", "schema", "message"}]}; "also": {name: schema} compiles those
// schemas too (last), e.g. a known-bad one that shows the check can fail.
// The server inherits this process's environment plus env.
// A tools/list the SDK refuses (it compiles every outputSchema while listing)
// is recorded as "list_error" and the tools are listed again without it, so
// compile_schemas can still name the tools at fault.
// Prints one JSON document: {"tools": [names], "resources": [uris],
// "templates": [uri templates], "prompts": [names], "steps": [{"call",
// "result"} or {"call", "thrown": {"code", "message"}}]}.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { ListToolsResultSchema } from "@modelcontextprotocol/sdk/types.js";

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
let listed;
try {
	listed = await client.listTools();
} catch (e) {
	out.list_error = String(e.message ?? e);
	listed = await client.request({ method: "tools/list" }, ListToolsResultSchema);
}
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
		if (step?.compile_schemas) {
			return { call: "compile_schemas", result: await compileSchemas(step.also ?? {}) };
		}
		if (step?.prompt) {
			return { call: step.prompt, result: await client.getPrompt({ name: step.prompt, arguments: args ?? {} }) };
		}
		return { call: name, result: await client.callTool({ name, arguments: args ?? {} }) };
	} catch (e) {
		return { call: step?.read ?? step?.prompt ?? step?.check_contract ?? name, thrown: { code: e.code ?? null, message: String(e.message ?? e) } };
	}
}

// compileSchemas compiles every schema a client would, each with a fresh
// validator of the SDK's (as the client has one per tool), and reports
// every failure by tool.
async function compileSchemas(also) {
	const failures = [];
	const compile = (tool, which, schema) => {
		if (schema === undefined || schema === null) {
			return;
		}
		try {
			new AjvJsonSchemaValidator().getValidator(schema);
		} catch (e) {
			failures.push({ tool, schema: which, message: String(e.message ?? e) });
		}
	};
	for (const t of listed.tools) {
		compile(t.name, "inputSchema", t.inputSchema);
		compile(t.name, "outputSchema", t.outputSchema);
		try {
			const read = await client.readResource({ uri: "godot://tool/" + t.name });
			const contract = JSON.parse(read.contents[0].text);
			if (!contract.input_schema) {
				failures.push({ tool: t.name, schema: "contract", message: "godot://tool/" + t.name + " has no input_schema" });
			}
			compile(t.name, "contract input_schema", contract.input_schema);
			compile(t.name, "contract output_schema", contract.output_schema);
		} catch (e) {
			failures.push({ tool: t.name, schema: "contract", message: "reading godot://tool/" + t.name + ": " + String(e.message ?? e) });
		}
	}
	for (const [name, schema] of Object.entries(also)) {
		compile(name, "also", schema);
	}
	return { tools: listed.tools.length, failures };
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
