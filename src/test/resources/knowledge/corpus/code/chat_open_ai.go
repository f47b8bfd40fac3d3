package main

import (
	"context"
	"os"

	"github.com/sashabaranov/go-openai"
)

// ChatOpenAI keeps the message history and the tool declarations of one conversation.
type ChatOpenAI struct {
	Ctx          context.Context
	Model        string
	Client       *openai.Client
	Messages     []openai.ChatCompletionMessage
	Tools        []openai.Tool
	SystemPrompt string
	RagContext   string
}

// Option configures a ChatOpenAI (functional options).
type Option func(*ChatOpenAI)

func WithSystemPrompt(prompt string) Option { return func(c *ChatOpenAI) { c.SystemPrompt = prompt } }

// WithRagContext adds retrieved knowledge; it is sent as a user message right after the system prompt.
func WithRagContext(ragContext string) Option { return func(c *ChatOpenAI) { c.RagContext = ragContext } }

func WithLLMTools(tools []openai.Tool) Option { return func(c *ChatOpenAI) { c.Tools = tools } }

// NewChatOpenAI reads ARK_API_KEY and ARK_BASE_URL and builds the client.
func NewChatOpenAI(ctx context.Context, model string, opts ...Option) *ChatOpenAI {
	config := openai.DefaultConfig(os.Getenv("ARK_API_KEY"))
	if base := os.Getenv("ARK_BASE_URL"); base != "" {
		config.BaseURL = base
	}
	c := &ChatOpenAI{Ctx: ctx, Model: model, Client: openai.NewClientWithConfig(config)}
	for _, opt := range opts {
		opt(c)
	}
	if c.SystemPrompt != "" {
		c.Messages = append(c.Messages, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleSystem, Content: c.SystemPrompt})
	}
	if c.RagContext != "" {
		c.Messages = append(c.Messages, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: c.RagContext})
	}
	return c
}

// AddToolResult appends a tool message answering the call with the given id.
func (c *ChatOpenAI) AddToolResult(toolCallID, content string) {
	c.Messages = append(c.Messages, openai.ChatCompletionMessage{
		Role: openai.ChatMessageRoleTool, ToolCallID: toolCallID, Content: content})
}
