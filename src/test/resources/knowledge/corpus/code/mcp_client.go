package main

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// MCPClient wraps one MCP server started as a child process.
type MCPClient struct {
	Ctx    context.Context
	Client *client.Client
	Tools  []mcp.Tool
	Cmd    string
	Args   []string
}

// NewMCPClient prepares the stdio transport; nothing runs until Start.
func NewMCPClient(ctx context.Context, cmd string, env, args []string) *MCPClient {
	stdio := transport.NewStdio(cmd, env, args...)
	return &MCPClient{Ctx: ctx, Client: client.NewClient(stdio), Cmd: cmd, Args: args}
}

// Start launches the process, performs the initialize handshake and caches the tool list.
func (m *MCPClient) Start() error {
	if err := m.Client.Start(m.Ctx); err != nil {
		return fmt.Errorf("start %s: %w", m.Cmd, err)
	}
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: "example-client", Version: "0.0.1"}
	if _, err := m.Client.Initialize(m.Ctx, req); err != nil {
		return fmt.Errorf("initialize %s: %w", m.Cmd, err)
	}
	result, err := m.Client.ListTools(m.Ctx, mcp.ListToolsRequest{})
	if err != nil {
		return fmt.Errorf("list tools: %w", err)
	}
	m.Tools = result.Tools
	return nil
}

// CallTool invokes one tool by name and returns the text parts of its result.
func (m *MCPClient) CallTool(name string, arguments map[string]any) (string, error) {
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = arguments
	result, err := m.Client.CallTool(m.Ctx, req)
	if err != nil {
		return "", err
	}
	text := ""
	for _, content := range result.Content {
		if t, ok := content.(mcp.TextContent); ok {
			text += t.Text
		}
	}
	return text, nil
}

// Close stops the child process.
func (m *MCPClient) Close() error {
	return m.Client.Close()
}
