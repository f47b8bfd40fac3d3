package dev.switchboard.chat;

import dev.switchboard.security.CurrentUser;

/** Who a chat run belongs to, captured on the request thread so the run can go on without the request scope. */
public record ChatCaller(String subject, String tenant) {

    public static ChatCaller of(CurrentUser user) {
        return new ChatCaller(user.subject(), user.tenant());
    }
}
