package main

import (
	"context"
	"encoding/json"
	"fmt"
)

// Agent 协调大模型和多个 MCP 客户端。
type Agent struct {
	MCPClients []*MCPClient
	LLM        *ChatOpenAI
	Ctx        context.Context
}

// Invoke 执行一次任务：把用户输入交给模型，只要模型返回工具调用就执行工具，
// 把结果以 tool 角色追加到消息历史，再次请求模型，直到模型给出不含工具调用的最终回答。
func (a *Agent) Invoke(prompt string) string {
	reply, toolCalls := a.LLM.Chat(prompt)
	for len(toolCalls) > 0 {
		for _, call := range toolCalls {
			result := a.runTool(call.Function.Name, call.Function.Arguments)
			// ToolCallID 把结果和模型发起的那次调用对应起来
			a.LLM.AddToolResult(call.ID, result)
		}
		// 工具结果已经在历史里，用空的提示继续下一轮
		reply, toolCalls = a.LLM.Chat("")
	}
	return reply
}

// runTool 在所有客户端里按名称查找工具；单个工具失败不会中断整个循环，错误作为结果交给模型。
func (a *Agent) runTool(name, rawArgs string) string {
	var args map[string]any
	if err := json.Unmarshal([]byte(rawArgs), &args); err != nil {
		return fmt.Sprintf("参数不是合法的 JSON: %v", err)
	}
	for _, c := range a.MCPClients {
		for _, tool := range c.Tools {
			if tool.Name == name {
				out, err := c.CallTool(name, args)
				if err != nil {
					return fmt.Sprintf("工具 %s 执行失败: %v", name, err)
				}
				return out
			}
		}
	}
	return fmt.Sprintf("没有找到工具 %s", name)
}

// Close 统一关闭所有 MCP 客户端。
func (a *Agent) Close() {
	for _, c := range a.MCPClients {
		_ = c.Close()
	}
}
