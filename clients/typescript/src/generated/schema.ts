// Generated from the service's OpenAPI document by `npm run generate`; do not edit.
// The schema test fails when this file differs from what the live service serves.

export const OPERATIONS = {
  "access_list": {
    "method": "GET",
    "path": "/access",
    "pathParams": [],
    "query": [
      "limit",
      "memory",
      "offset",
      "since",
      "token"
    ],
    "requiredQuery": [],
    "body": null,
    "status": 200,
    "answer": {
      "type": "array",
      "items": {
        "ref": "AccessRecordOutput"
      }
    }
  },
  "account_erasure_confirm": {
    "method": "POST",
    "path": "/account/erasure/confirm",
    "pathParams": [],
    "query": [],
    "requiredQuery": [],
    "body": "ErasureConfirmInputRequest",
    "status": 200,
    "answer": {
      "ref": "ErasureOutput"
    }
  },
  "account_erasure_request": {
    "method": "POST",
    "path": "/account/erasure",
    "pathParams": [],
    "query": [],
    "requiredQuery": [],
    "body": null,
    "status": 202,
    "answer": {
      "ref": "ErasureRequestOutput"
    }
  },
  "challenges_get": {
    "method": "GET",
    "path": "/challenges/{challenge_id}",
    "pathParams": [
      "challenge_id"
    ],
    "query": [],
    "requiredQuery": [],
    "body": null,
    "status": 200,
    "answer": {
      "ref": "ChallengeOutput"
    }
  },
  "challenges_keep": {
    "method": "POST",
    "path": "/challenges/{challenge_id}/keep",
    "pathParams": [
      "challenge_id"
    ],
    "query": [],
    "requiredQuery": [],
    "body": null,
    "status": 200,
    "answer": {
      "ref": "ChallengeOutput"
    }
  },
  "challenges_list": {
    "method": "GET",
    "path": "/challenges",
    "pathParams": [],
    "query": [
      "limit",
      "offset",
      "state"
    ],
    "requiredQuery": [],
    "body": null,
    "status": 200,
    "answer": {
      "ref": "ChallengePageOutput"
    }
  },
  "challenges_replace": {
    "method": "POST",
    "path": "/challenges/{challenge_id}/replace",
    "pathParams": [
      "challenge_id"
    ],
    "query": [],
    "requiredQuery": [],
    "body": null,
    "status": 200,
    "answer": {
      "ref": "ChallengeOutput"
    }
  },
  "derived_delete": {
    "method": "DELETE",
    "path": "/derived/{derived_id}",
    "pathParams": [
      "derived_id"
    ],
    "query": [
      "expected_revision"
    ],
    "requiredQuery": [
      "expected_revision"
    ],
    "body": null,
    "status": 200,
    "answer": {
      "ref": "DerivedControlOutput"
    }
  },
  "derived_get": {
    "method": "GET",
    "path": "/derived/{derived_id}",
    "pathParams": [
      "derived_id"
    ],
    "query": [],
    "requiredQuery": [],
    "body": null,
    "status": 200,
    "answer": {
      "ref": "DerivedOutput"
    }
  },
  "derived_promote": {
    "method": "POST",
    "path": "/derived/{derived_id}/promote",
    "pathParams": [
      "derived_id"
    ],
    "query": [],
    "requiredQuery": [],
    "body": "PromoteInputRequest",
    "status": 200,
    "answer": {
      "ref": "DerivedControlOutput"
    }
  },
  "derived_reject": {
    "method": "POST",
    "path": "/derived/{derived_id}/reject",
    "pathParams": [
      "derived_id"
    ],
    "query": [],
    "requiredQuery": [],
    "body": "RevisionInputRequest",
    "status": 200,
    "answer": {
      "ref": "DerivedControlOutput"
    }
  },
  "derived_restrict": {
    "method": "POST",
    "path": "/derived/{derived_id}/restrict",
    "pathParams": [
      "derived_id"
    ],
    "query": [],
    "requiredQuery": [],
    "body": "RevisionInputRequest",
    "status": 200,
    "answer": {
      "ref": "DerivedControlOutput"
    }
  },
  "derived_review": {
    "method": "POST",
    "path": "/derived/{derived_id}/review",
    "pathParams": [
      "derived_id"
    ],
    "query": [],
    "requiredQuery": [],
    "body": "RevisionInputRequest",
    "status": 200,
    "answer": {
      "ref": "DerivedControlOutput"
    }
  },
  "derived_unrestrict": {
    "method": "POST",
    "path": "/derived/{derived_id}/unrestrict",
    "pathParams": [
      "derived_id"
    ],
    "query": [],
    "requiredQuery": [],
    "body": "RevisionInputRequest",
    "status": 200,
    "answer": {
      "ref": "DerivedControlOutput"
    }
  },
  "events_append": {
    "method": "POST",
    "path": "/sessions/{session_id}/events",
    "pathParams": [
      "session_id"
    ],
    "query": [],
    "requiredQuery": [],
    "body": "EventAppendInputRequest",
    "status": 201,
    "answer": {
      "ref": "EventOutput"
    }
  },
  "events_erase": {
    "method": "POST",
    "path": "/events/{event_id}/erase",
    "pathParams": [
      "event_id"
    ],
    "query": [],
    "requiredQuery": [],
    "body": null,
    "status": 200,
    "answer": {
      "ref": "EventOutput"
    }
  },
  "events_list": {
    "method": "GET",
    "path": "/sessions/{session_id}/events",
    "pathParams": [
      "session_id"
    ],
    "query": [
      "after_sequence",
      "limit",
      "offset"
    ],
    "requiredQuery": [],
    "body": null,
    "status": 200,
    "answer": {
      "type": "array",
      "items": {
        "ref": "EventOutput"
      }
    }
  },
  "export": {
    "method": "GET",
    "path": "/export",
    "pathParams": [],
    "query": [],
    "requiredQuery": [],
    "body": null,
    "status": 200,
    "answer": {
      "type": "object",
      "additionalProperties": true
    }
  },
  "memories_confirm": {
    "method": "POST",
    "path": "/memories/{memory_id}/confirm",
    "pathParams": [
      "memory_id"
    ],
    "query": [],
    "requiredQuery": [],
    "body": "RevisionInputRequest",
    "status": 200,
    "answer": {
      "ref": "MemoryOutput"
    }
  },
  "memories_correct": {
    "method": "POST",
    "path": "/memories/{memory_id}/correct",
    "pathParams": [
      "memory_id"
    ],
    "query": [],
    "requiredQuery": [],
    "body": "MemoryCorrectInputRequest",
    "status": 201,
    "answer": {
      "ref": "MemoryOutput"
    }
  },
  "memories_delete": {
    "method": "DELETE",
    "path": "/memories/{memory_id}",
    "pathParams": [
      "memory_id"
    ],
    "query": [
      "expected_revision"
    ],
    "requiredQuery": [
      "expected_revision"
    ],
    "body": null,
    "status": 200,
    "answer": {
      "ref": "MemoryOutput"
    }
  },
  "memories_get": {
    "method": "GET",
    "path": "/memories/{memory_id}",
    "pathParams": [
      "memory_id"
    ],
    "query": [],
    "requiredQuery": [],
    "body": null,
    "status": 200,
    "answer": {
      "ref": "MemoryOutput"
    }
  },
  "memories_history": {
    "method": "GET",
    "path": "/memories/{memory_id}/history",
    "pathParams": [
      "memory_id"
    ],
    "query": [],
    "requiredQuery": [],
    "body": null,
    "status": 200,
    "answer": {
      "ref": "HistoryOutput"
    }
  },
  "memories_list": {
    "method": "GET",
    "path": "/memories",
    "pathParams": [],
    "query": [
      "changed_since",
      "derived_limit",
      "derived_offset",
      "include",
      "limit",
      "needs_review",
      "offset",
      "status",
      "type"
    ],
    "requiredQuery": [],
    "body": null,
    "status": 200,
    "answer": {
      "ref": "MemoryPageOutput"
    }
  },
  "memories_reject": {
    "method": "POST",
    "path": "/memories/{memory_id}/reject",
    "pathParams": [
      "memory_id"
    ],
    "query": [],
    "requiredQuery": [],
    "body": "RevisionInputRequest",
    "status": 200,
    "answer": {
      "ref": "MemoryOutput"
    }
  },
  "memories_remember": {
    "method": "POST",
    "path": "/memories",
    "pathParams": [],
    "query": [],
    "requiredQuery": [],
    "body": "MemoryRememberInputRequest",
    "status": 201,
    "answer": {
      "ref": "MemoryOutput"
    }
  },
  "operations_get": {
    "method": "GET",
    "path": "/operations/{operation_id}",
    "pathParams": [
      "operation_id"
    ],
    "query": [],
    "requiredQuery": [],
    "body": null,
    "status": 200,
    "answer": {
      "ref": "OperationDetailOutput"
    }
  },
  "operations_list": {
    "method": "GET",
    "path": "/operations",
    "pathParams": [],
    "query": [
      "changed_since",
      "kind",
      "limit",
      "offset",
      "state"
    ],
    "requiredQuery": [],
    "body": null,
    "status": 200,
    "answer": {
      "ref": "OperationPageOutput"
    }
  },
  "operations_undo": {
    "method": "POST",
    "path": "/operations/{operation_id}/undo",
    "pathParams": [
      "operation_id"
    ],
    "query": [],
    "requiredQuery": [],
    "body": "RevisionInputRequest",
    "status": 200,
    "answer": {
      "ref": "UndoOutput"
    }
  },
  "operations_undo_preview": {
    "method": "GET",
    "path": "/operations/{operation_id}/undo-preview",
    "pathParams": [
      "operation_id"
    ],
    "query": [],
    "requiredQuery": [],
    "body": null,
    "status": 200,
    "answer": {
      "ref": "UndoPreviewOutput"
    }
  },
  "recall": {
    "method": "POST",
    "path": "/recall",
    "pathParams": [],
    "query": [],
    "requiredQuery": [],
    "body": "RecallInputRequest",
    "status": 200,
    "answer": {
      "ref": "RecallOutput"
    }
  },
  "runs_complete": {
    "method": "POST",
    "path": "/runs/{run_id}/complete",
    "pathParams": [
      "run_id"
    ],
    "query": [],
    "requiredQuery": [],
    "body": null,
    "status": 200,
    "answer": {
      "ref": "RunOutput"
    }
  },
  "runs_create": {
    "method": "POST",
    "path": "/sessions/{session_id}/runs",
    "pathParams": [
      "session_id"
    ],
    "query": [],
    "requiredQuery": [],
    "body": null,
    "status": 201,
    "answer": {
      "ref": "RunOutput"
    }
  },
  "runs_fail": {
    "method": "POST",
    "path": "/runs/{run_id}/fail",
    "pathParams": [
      "run_id"
    ],
    "query": [],
    "requiredQuery": [],
    "body": "RunFailInputRequest",
    "status": 200,
    "answer": {
      "ref": "RunOutput"
    }
  },
  "runs_get": {
    "method": "GET",
    "path": "/runs/{run_id}",
    "pathParams": [
      "run_id"
    ],
    "query": [],
    "requiredQuery": [],
    "body": null,
    "status": 200,
    "answer": {
      "ref": "RunOutput"
    }
  },
  "runs_wait": {
    "method": "POST",
    "path": "/runs/{run_id}/wait",
    "pathParams": [
      "run_id"
    ],
    "query": [],
    "requiredQuery": [],
    "body": null,
    "status": 200,
    "answer": {
      "ref": "RunOutput"
    }
  },
  "sessions_close": {
    "method": "POST",
    "path": "/sessions/{session_id}/close",
    "pathParams": [
      "session_id"
    ],
    "query": [],
    "requiredQuery": [],
    "body": null,
    "status": 200,
    "answer": {
      "ref": "SessionOutput"
    }
  },
  "sessions_create": {
    "method": "POST",
    "path": "/sessions",
    "pathParams": [],
    "query": [],
    "requiredQuery": [],
    "body": "SessionCreateInputRequest",
    "status": 201,
    "answer": {
      "ref": "SessionOutput"
    }
  },
  "sessions_erase": {
    "method": "POST",
    "path": "/sessions/{session_id}/erase",
    "pathParams": [
      "session_id"
    ],
    "query": [],
    "requiredQuery": [],
    "body": null,
    "status": 200,
    "answer": {
      "ref": "SessionOutput"
    }
  },
  "sessions_get": {
    "method": "GET",
    "path": "/sessions/{session_id}",
    "pathParams": [
      "session_id"
    ],
    "query": [],
    "requiredQuery": [],
    "body": null,
    "status": 200,
    "answer": {
      "ref": "SessionOutput"
    }
  },
  "sessions_list": {
    "method": "GET",
    "path": "/sessions",
    "pathParams": [],
    "query": [
      "limit",
      "offset"
    ],
    "requiredQuery": [],
    "body": null,
    "status": 200,
    "answer": {
      "type": "array",
      "items": {
        "ref": "SessionOutput"
      }
    }
  },
  "summaries_get": {
    "method": "GET",
    "path": "/summaries/{summary_id}",
    "pathParams": [
      "summary_id"
    ],
    "query": [],
    "requiredQuery": [],
    "body": null,
    "status": 200,
    "answer": {
      "ref": "SummaryJournalOutput"
    }
  },
  "tokens_pause": {
    "method": "POST",
    "path": "/tokens/{token_id}/pause",
    "pathParams": [
      "token_id"
    ],
    "query": [],
    "requiredQuery": [],
    "body": null,
    "status": 200,
    "answer": {
      "ref": "TokenOutput"
    }
  },
  "tokens_resume": {
    "method": "POST",
    "path": "/tokens/{token_id}/resume",
    "pathParams": [
      "token_id"
    ],
    "query": [],
    "requiredQuery": [],
    "body": null,
    "status": 200,
    "answer": {
      "ref": "TokenOutput"
    }
  }
} as const;

export const COMPONENTS = {
  "AccessRecordOutput": {
    "type": "object",
    "properties": {
      "id": {
        "type": "string"
      },
      "token_id": {
        "type": "string"
      },
      "token_name": {
        "type": "string"
      },
      "route": {
        "type": "string"
      },
      "request_id": {
        "type": "string"
      },
      "at": {
        "type": "string",
        "format": "date-time"
      },
      "memory_ids": {
        "type": "array",
        "items": {
          "type": "string"
        }
      },
      "message_ids": {
        "type": "array",
        "items": {
          "type": "string"
        }
      },
      "derived_ids": {
        "type": "array",
        "items": {
          "type": "string"
        }
      }
    },
    "required": [
      "at",
      "derived_ids",
      "id",
      "memory_ids",
      "message_ids",
      "request_id",
      "route",
      "token_id",
      "token_name"
    ]
  },
  "ChallengeOutput": {
    "type": "object",
    "properties": {
      "id": {
        "type": "string"
      },
      "state": {
        "ref": "ChallengeStateEnum"
      },
      "created_at": {
        "type": "string",
        "format": "date-time"
      },
      "updated_at": {
        "type": "string",
        "format": "date-time"
      },
      "decided_at": {
        "type": "string",
        "format": "date-time",
        "nullable": true
      },
      "standing": {
        "allOf": [
          {
            "ref": "StandingOutput"
          }
        ]
      },
      "proposal": {
        "allOf": [
          {
            "ref": "ProposalOutput"
          }
        ]
      },
      "replacement": {
        "type": "string",
        "nullable": true
      }
    },
    "required": [
      "created_at",
      "decided_at",
      "id",
      "proposal",
      "replacement",
      "standing",
      "state",
      "updated_at"
    ]
  },
  "ChallengePageOutput": {
    "type": "object",
    "properties": {
      "results": {
        "type": "array",
        "items": {
          "ref": "ChallengeOutput"
        }
      }
    },
    "required": [
      "results"
    ]
  },
  "ChallengeSourceOutput": {
    "type": "object",
    "properties": {
      "event_id": {
        "type": "string"
      },
      "excerpt": {
        "type": "string"
      }
    },
    "required": [
      "event_id",
      "excerpt"
    ]
  },
  "ChallengeStateEnum": {
    "type": "string",
    "enum": [
      "open",
      "kept",
      "replaced"
    ]
  },
  "ChangeOutput": {
    "type": "object",
    "properties": {
      "memory_id": {
        "type": "string"
      },
      "action": {
        "type": "string"
      },
      "actor": {
        "type": "string"
      },
      "revision": {
        "type": "integer",
        "nullable": true
      },
      "from_status": {
        "type": "string"
      },
      "to_status": {
        "type": "string"
      },
      "at": {
        "type": "string",
        "format": "date-time"
      }
    },
    "required": [
      "action",
      "actor",
      "at",
      "from_status",
      "memory_id",
      "revision",
      "to_status"
    ]
  },
  "CodeEnum": {
    "type": "string",
    "enum": [
      "validation_error",
      "unauthenticated",
      "forbidden",
      "not_found",
      "method_not_allowed",
      "not_acceptable",
      "conflict",
      "payload_too_large",
      "unsupported_media_type",
      "rate_limited",
      "internal_error"
    ]
  },
  "ContextPositionEnum": {
    "type": "string",
    "enum": [
      "before",
      "after"
    ]
  },
  "DerivedControlOutput": {
    "type": "object",
    "properties": {
      "receipt": {
        "ref": "ReceiptOutput"
      },
      "replayed": {
        "type": "boolean"
      },
      "derived": {
        "allOf": [
          {
            "ref": "DerivedOutput"
          }
        ]
      },
      "memory": {
        "allOf": [
          {
            "ref": "MemoryOutput"
          }
        ]
      }
    },
    "required": [
      "derived",
      "receipt",
      "replayed"
    ]
  },
  "DerivedKindEnum": {
    "type": "string",
    "enum": [
      "merged",
      "summary",
      "hypothesis",
      "uncertainty_notice"
    ]
  },
  "DerivedOutput": {
    "type": "object",
    "properties": {
      "id": {
        "type": "string"
      },
      "derived_kind": {
        "ref": "DerivedKindEnum"
      },
      "status": {
        "ref": "StatusEnum"
      },
      "tentative": {
        "type": "boolean"
      },
      "review_state": {
        "ref": "ReviewStateEnum"
      },
      "restricted": {
        "type": "boolean"
      },
      "statement": {
        "type": "string"
      },
      "subject": {
        "type": "string"
      },
      "subject_label": {
        "type": "string"
      },
      "type": {
        "type": "string"
      },
      "polarity": {
        "type": "string"
      },
      "authority": {
        "type": "string"
      },
      "scope": {
        "type": "string"
      },
      "sensitivity": {
        "type": "string"
      },
      "portability": {
        "type": "string"
      },
      "confidence": {
        "type": "number"
      },
      "valid_from": {
        "type": "string",
        "format": "date-time",
        "nullable": true
      },
      "valid_until": {
        "type": "string",
        "format": "date-time",
        "nullable": true
      },
      "evidence_at": {
        "type": "string",
        "format": "date-time",
        "nullable": true
      },
      "expires_at": {
        "type": "string",
        "format": "date-time",
        "nullable": true
      },
      "revision": {
        "type": "integer"
      },
      "created_at": {
        "type": "string",
        "format": "date-time"
      },
      "updated_at": {
        "type": "string",
        "format": "date-time"
      },
      "operation_id": {
        "type": "string",
        "nullable": true
      },
      "memory_ids": {
        "type": "array",
        "items": {
          "type": "string"
        }
      },
      "omitted_memory_ids": {
        "type": "array",
        "items": {
          "type": "string"
        }
      }
    },
    "required": [
      "authority",
      "confidence",
      "created_at",
      "derived_kind",
      "evidence_at",
      "expires_at",
      "id",
      "memory_ids",
      "omitted_memory_ids",
      "operation_id",
      "polarity",
      "portability",
      "restricted",
      "review_state",
      "revision",
      "scope",
      "sensitivity",
      "statement",
      "status",
      "subject",
      "subject_label",
      "tentative",
      "type",
      "updated_at",
      "valid_from",
      "valid_until"
    ]
  },
  "ErasureConfirmInputRequest": {
    "type": "object",
    "properties": {
      "token": {
        "type": "string"
      }
    },
    "required": [
      "token"
    ]
  },
  "ErasureOutput": {
    "type": "object",
    "properties": {
      "erased": {
        "type": "object",
        "additionalProperties": {
          "type": "integer"
        }
      }
    },
    "required": [
      "erased"
    ]
  },
  "ErasureRequestOutput": {
    "type": "object",
    "properties": {
      "token": {
        "type": "string"
      },
      "expires_at": {
        "type": "string",
        "format": "date-time"
      }
    },
    "required": [
      "expires_at",
      "token"
    ]
  },
  "Error": {
    "type": "object",
    "properties": {
      "error": {
        "ref": "ErrorDetail"
      }
    },
    "required": [
      "error"
    ]
  },
  "ErrorDetail": {
    "type": "object",
    "properties": {
      "code": {
        "ref": "CodeEnum"
      },
      "message": {
        "type": "string"
      },
      "details": {
        "type": "object",
        "additionalProperties": true
      },
      "request_id": {
        "type": "string"
      }
    },
    "required": [
      "code",
      "details",
      "message",
      "request_id"
    ]
  },
  "EventAppendInputRequest": {
    "type": "object",
    "properties": {
      "type": {
        "ref": "MessageTypeEnum"
      },
      "parts": {
        "type": "array",
        "items": {
          "ref": "PartInputRequest"
        }
      },
      "author_name": {
        "type": "string"
      },
      "external_id": {
        "type": "string",
        "nullable": true
      },
      "occurred_at": {
        "type": "string",
        "format": "date-time",
        "nullable": true
      }
    },
    "required": [
      "parts",
      "type"
    ]
  },
  "EventOutput": {
    "type": "object",
    "properties": {
      "id": {
        "type": "string"
      },
      "session_id": {
        "type": "string"
      },
      "sequence": {
        "type": "integer"
      },
      "type": {
        "type": "string"
      },
      "author_kind": {
        "type": "string"
      },
      "author_name": {
        "type": "string"
      },
      "parts": {
        "type": "array",
        "items": {
          "ref": "PartOutput"
        }
      },
      "payload": {
        "type": "object",
        "additionalProperties": true
      },
      "external_id": {
        "type": "string",
        "nullable": true
      },
      "sensitivity": {
        "type": "string"
      },
      "occurred_at": {
        "type": "string",
        "format": "date-time"
      },
      "created_at": {
        "type": "string",
        "format": "date-time"
      },
      "redacted_at": {
        "type": "string",
        "format": "date-time",
        "nullable": true
      }
    },
    "required": [
      "author_kind",
      "author_name",
      "created_at",
      "external_id",
      "id",
      "occurred_at",
      "parts",
      "payload",
      "redacted_at",
      "sensitivity",
      "sequence",
      "session_id",
      "type"
    ]
  },
  "HistoryOutput": {
    "type": "object",
    "properties": {
      "memory_id": {
        "type": "string"
      },
      "versions": {
        "type": "array",
        "items": {
          "ref": "MemoryOutput"
        }
      },
      "changes": {
        "type": "array",
        "items": {
          "ref": "ChangeOutput"
        }
      }
    },
    "required": [
      "changes",
      "memory_id",
      "versions"
    ]
  },
  "IncludeEnum": {
    "type": "string",
    "enum": [
      "messages",
      "derived"
    ]
  },
  "JournalClaimOutput": {
    "type": "object",
    "properties": {
      "position": {
        "type": "integer"
      },
      "statement": {
        "type": "string"
      },
      "polarity": {
        "type": "string"
      },
      "uncertain": {
        "type": "boolean"
      },
      "supports": {
        "type": "array",
        "items": {
          "ref": "JournalOriginalOutput"
        }
      }
    },
    "required": [
      "polarity",
      "position",
      "statement",
      "supports",
      "uncertain"
    ]
  },
  "JournalOriginalOutput": {
    "type": "object",
    "properties": {
      "memory_id": {
        "type": "string"
      },
      "read_revision": {
        "type": "integer"
      },
      "status": {
        "type": "string"
      },
      "revision": {
        "type": "integer",
        "nullable": true
      },
      "statement": {
        "type": "string"
      },
      "tombstone": {
        "type": "boolean"
      },
      "href": {
        "type": "string"
      }
    },
    "required": [
      "href",
      "memory_id",
      "read_revision",
      "revision",
      "statement",
      "status",
      "tombstone"
    ]
  },
  "LiveStatusEnum": {
    "type": "string",
    "enum": [
      "active",
      "provisional"
    ]
  },
  "MemoryCorrectInputRequest": {
    "type": "object",
    "properties": {
      "expected_revision": {
        "type": "integer"
      },
      "statement": {
        "type": "string"
      },
      "subject": {
        "type": "string",
        "nullable": true
      },
      "polarity": {
        "ref": "PolarityEnum"
      },
      "sensitivity": {
        "ref": "SensitivityEnum"
      },
      "valid_from": {
        "type": "string",
        "format": "date-time",
        "nullable": true
      },
      "valid_until": {
        "type": "string",
        "format": "date-time",
        "nullable": true
      },
      "expires_at": {
        "type": "string",
        "format": "date-time",
        "nullable": true
      }
    },
    "required": [
      "expected_revision",
      "statement"
    ]
  },
  "MemoryOutput": {
    "type": "object",
    "properties": {
      "id": {
        "type": "string"
      },
      "type": {
        "type": "string"
      },
      "subject": {
        "type": "string"
      },
      "statement": {
        "type": "string"
      },
      "polarity": {
        "type": "string"
      },
      "authority": {
        "type": "string"
      },
      "status": {
        "type": "string"
      },
      "needs_review": {
        "type": "boolean"
      },
      "confidence": {
        "type": "number"
      },
      "scope": {
        "type": "string"
      },
      "portability": {
        "type": "string"
      },
      "sensitivity": {
        "type": "string"
      },
      "valid_from": {
        "type": "string",
        "format": "date-time",
        "nullable": true
      },
      "valid_until": {
        "type": "string",
        "format": "date-time",
        "nullable": true
      },
      "expires_at": {
        "type": "string",
        "format": "date-time",
        "nullable": true
      },
      "supersedes": {
        "type": "string",
        "nullable": true
      },
      "superseded_by": {
        "type": "string",
        "nullable": true
      },
      "revision": {
        "type": "integer"
      },
      "created_at": {
        "type": "string",
        "format": "date-time"
      },
      "updated_at": {
        "type": "string",
        "format": "date-time"
      },
      "sources": {
        "type": "array",
        "items": {
          "ref": "SourceOutput"
        }
      }
    },
    "required": [
      "authority",
      "confidence",
      "created_at",
      "expires_at",
      "id",
      "needs_review",
      "polarity",
      "portability",
      "revision",
      "scope",
      "sensitivity",
      "sources",
      "statement",
      "status",
      "subject",
      "superseded_by",
      "supersedes",
      "type",
      "updated_at",
      "valid_from",
      "valid_until"
    ]
  },
  "MemoryPageOutput": {
    "type": "object",
    "properties": {
      "results": {
        "type": "array",
        "items": {
          "ref": "MemoryOutput"
        }
      },
      "next_changed_since": {
        "type": "string",
        "nullable": true
      },
      "derived": {
        "type": "array",
        "items": {
          "ref": "DerivedOutput"
        }
      }
    },
    "required": [
      "next_changed_since",
      "results"
    ]
  },
  "MemoryRememberInputRequest": {
    "type": "object",
    "properties": {
      "statement": {
        "type": "string"
      },
      "type": {
        "allOf": [
          {
            "ref": "MemoryTypeEnum"
          }
        ]
      },
      "subject": {
        "type": "string",
        "nullable": true
      },
      "polarity": {
        "allOf": [
          {
            "ref": "PolarityEnum"
          }
        ]
      },
      "confidence": {
        "type": "number"
      },
      "scope": {
        "type": "string"
      },
      "portability": {
        "allOf": [
          {
            "ref": "PortabilityEnum"
          }
        ]
      },
      "sensitivity": {
        "allOf": [
          {
            "ref": "SensitivityEnum"
          }
        ]
      },
      "valid_from": {
        "type": "string",
        "format": "date-time",
        "nullable": true
      },
      "valid_until": {
        "type": "string",
        "format": "date-time",
        "nullable": true
      },
      "expires_at": {
        "type": "string",
        "format": "date-time",
        "nullable": true
      },
      "source_event_ids": {
        "type": "array",
        "items": {
          "type": "string"
        }
      }
    },
    "required": [
      "statement"
    ]
  },
  "MemoryTypeEnum": {
    "type": "string",
    "enum": [
      "ownership",
      "preference",
      "attribute",
      "relationship",
      "decision",
      "outcome",
      "fact"
    ]
  },
  "MessageTypeEnum": {
    "type": "string",
    "enum": [
      "user.message.created",
      "assistant.message.created",
      "participant.message.created"
    ]
  },
  "OperationDerivedOutput": {
    "type": "object",
    "properties": {
      "id": {
        "type": "string"
      },
      "kind": {
        "type": "string"
      },
      "status": {
        "type": "string"
      },
      "revision": {
        "type": "integer"
      },
      "review_state": {
        "type": "string"
      },
      "restricted": {
        "type": "boolean"
      },
      "tentative": {
        "type": "boolean"
      },
      "statement": {
        "type": "string"
      }
    },
    "required": [
      "id",
      "kind",
      "restricted",
      "review_state",
      "revision",
      "statement",
      "status",
      "tentative"
    ]
  },
  "OperationDetailOutput": {
    "type": "object",
    "properties": {
      "id": {
        "type": "string"
      },
      "kind": {
        "ref": "OperationKindEnum"
      },
      "state": {
        "ref": "OperationStateEnum"
      },
      "revision": {
        "type": "integer"
      },
      "policy_version": {
        "type": "string"
      },
      "invalidation_reason": {
        "type": "string"
      },
      "created_at": {
        "type": "string",
        "format": "date-time"
      },
      "updated_at": {
        "type": "string",
        "format": "date-time"
      },
      "inputs": {
        "type": "array",
        "items": {
          "ref": "OperationInputOutput"
        }
      },
      "outputs": {
        "type": "array",
        "items": {
          "ref": "OperationDerivedOutput"
        }
      },
      "receipts": {
        "type": "array",
        "items": {
          "ref": "ReceiptOutput"
        }
      }
    },
    "required": [
      "created_at",
      "id",
      "inputs",
      "invalidation_reason",
      "kind",
      "outputs",
      "policy_version",
      "receipts",
      "revision",
      "state",
      "updated_at"
    ]
  },
  "OperationInputOutput": {
    "type": "object",
    "properties": {
      "memory_id": {
        "type": "string"
      },
      "read_revision": {
        "type": "integer"
      },
      "status": {
        "type": "string"
      },
      "revision": {
        "type": "integer",
        "nullable": true
      },
      "live": {
        "type": "boolean"
      },
      "reason": {
        "type": "string"
      }
    },
    "required": [
      "live",
      "memory_id",
      "read_revision",
      "reason",
      "revision",
      "status"
    ]
  },
  "OperationKindEnum": {
    "type": "string",
    "enum": [
      "merge",
      "summary",
      "hypothesis",
      "uncertainty_notice"
    ]
  },
  "OperationOutput": {
    "type": "object",
    "properties": {
      "id": {
        "type": "string"
      },
      "kind": {
        "ref": "OperationKindEnum"
      },
      "state": {
        "ref": "OperationStateEnum"
      },
      "revision": {
        "type": "integer"
      },
      "policy_version": {
        "type": "string"
      },
      "invalidation_reason": {
        "type": "string"
      },
      "created_at": {
        "type": "string",
        "format": "date-time"
      },
      "updated_at": {
        "type": "string",
        "format": "date-time"
      }
    },
    "required": [
      "created_at",
      "id",
      "invalidation_reason",
      "kind",
      "policy_version",
      "revision",
      "state",
      "updated_at"
    ]
  },
  "OperationPageOutput": {
    "type": "object",
    "properties": {
      "results": {
        "type": "array",
        "items": {
          "ref": "OperationOutput"
        }
      },
      "next_changed_since": {
        "type": "string",
        "nullable": true
      }
    },
    "required": [
      "next_changed_since",
      "results"
    ]
  },
  "OperationStateEnum": {
    "type": "string",
    "enum": [
      "planned",
      "applied",
      "invalidated",
      "undone",
      "failed"
    ]
  },
  "PartInputRequest": {
    "type": "object",
    "properties": {
      "type": {
        "allOf": [
          {
            "ref": "PartTypeEnum"
          }
        ]
      },
      "text": {
        "type": "string"
      }
    },
    "required": [
      "text"
    ]
  },
  "PartOutput": {
    "type": "object",
    "properties": {
      "type": {
        "type": "string"
      },
      "text": {
        "type": "string"
      }
    },
    "required": [
      "text",
      "type"
    ]
  },
  "PartTypeEnum": {
    "type": "string",
    "enum": [
      "text",
      "caption"
    ]
  },
  "PolarityEnum": {
    "type": "string",
    "enum": [
      "positive",
      "negative"
    ]
  },
  "PortabilityEnum": {
    "type": "string",
    "enum": [
      "portable",
      "local"
    ]
  },
  "PromoteInputRequest": {
    "type": "object",
    "properties": {
      "expected_revision": {
        "type": "integer"
      },
      "statement": {
        "type": "string"
      }
    },
    "required": [
      "expected_revision"
    ]
  },
  "ProposalOutput": {
    "type": "object",
    "properties": {
      "type": {
        "type": "string"
      },
      "subject": {
        "type": "string"
      },
      "statement": {
        "type": "string"
      },
      "polarity": {
        "type": "string"
      },
      "model_proposed": {
        "type": "boolean"
      },
      "sources": {
        "type": "array",
        "items": {
          "ref": "ChallengeSourceOutput"
        }
      }
    },
    "required": [
      "model_proposed",
      "polarity",
      "sources",
      "statement",
      "subject",
      "type"
    ]
  },
  "RecallContextOutput": {
    "type": "object",
    "properties": {
      "id": {
        "type": "string"
      },
      "text": {
        "type": "string"
      },
      "sequence": {
        "type": "integer"
      },
      "event_type": {
        "type": "string"
      },
      "occurred_at": {
        "type": "string",
        "format": "date-time"
      },
      "position": {
        "allOf": [
          {
            "ref": "ContextPositionEnum"
          }
        ]
      }
    },
    "required": [
      "event_type",
      "id",
      "occurred_at",
      "position",
      "sequence",
      "text"
    ]
  },
  "RecallInputRequest": {
    "type": "object",
    "properties": {
      "query": {
        "type": "string"
      },
      "types": {
        "type": "array",
        "items": {
          "ref": "MemoryTypeEnum"
        }
      },
      "statuses": {
        "type": "array",
        "items": {
          "ref": "LiveStatusEnum"
        }
      },
      "since": {
        "type": "string",
        "format": "date-time",
        "nullable": true
      },
      "include": {
        "type": "array",
        "items": {
          "ref": "IncludeEnum"
        }
      },
      "limit": {
        "type": "integer"
      },
      "budget_chars": {
        "type": "integer"
      },
      "context_turns": {
        "type": "integer"
      }
    },
    "required": []
  },
  "RecallItemOutput": {
    "type": "object",
    "properties": {
      "kind": {
        "ref": "RecallItemOutputKindEnum"
      },
      "id": {
        "type": "string"
      },
      "text": {
        "type": "string"
      },
      "rank": {
        "type": "integer"
      },
      "score": {
        "type": "number"
      },
      "sources": {
        "type": "array",
        "items": {
          "ref": "RecallSourceOutput"
        }
      },
      "type": {
        "type": "string"
      },
      "subject": {
        "type": "string"
      },
      "status": {
        "type": "string"
      },
      "needs_review": {
        "type": "boolean"
      },
      "confidence": {
        "type": "number",
        "nullable": true
      },
      "revision": {
        "type": "integer",
        "nullable": true
      },
      "session_id": {
        "type": "string"
      },
      "sequence": {
        "type": "integer",
        "nullable": true
      },
      "event_type": {
        "type": "string"
      },
      "occurred_at": {
        "type": "string",
        "format": "date-time",
        "nullable": true
      },
      "derived_kind": {
        "allOf": [
          {
            "ref": "DerivedKindEnum"
          }
        ]
      },
      "tentative": {
        "type": "boolean"
      },
      "memory_ids": {
        "type": "array",
        "items": {
          "type": "string"
        }
      },
      "context": {
        "type": "array",
        "items": {
          "ref": "RecallContextOutput"
        }
      }
    },
    "required": [
      "confidence",
      "event_type",
      "id",
      "kind",
      "needs_review",
      "occurred_at",
      "rank",
      "revision",
      "score",
      "sequence",
      "session_id",
      "sources",
      "status",
      "subject",
      "text",
      "type"
    ]
  },
  "RecallItemOutputKindEnum": {
    "type": "string",
    "enum": [
      "belief",
      "message",
      "derived"
    ]
  },
  "RecallOutput": {
    "type": "object",
    "properties": {
      "items": {
        "type": "array",
        "items": {
          "ref": "RecallItemOutput"
        }
      },
      "terms": {
        "type": "array",
        "items": {
          "type": "string"
        }
      },
      "chars": {
        "type": "integer"
      },
      "truncated": {
        "type": "boolean"
      },
      "profile": {
        "type": "boolean"
      }
    },
    "required": [
      "chars",
      "items",
      "profile",
      "terms",
      "truncated"
    ]
  },
  "RecallSourceOutput": {
    "type": "object",
    "properties": {
      "event_id": {
        "type": "string"
      },
      "session_id": {
        "type": "string"
      },
      "sequence": {
        "type": "integer"
      },
      "event_type": {
        "type": "string"
      },
      "occurred_at": {
        "type": "string",
        "format": "date-time"
      },
      "excerpt": {
        "type": "string"
      }
    },
    "required": [
      "event_id",
      "event_type",
      "excerpt",
      "occurred_at",
      "sequence",
      "session_id"
    ]
  },
  "ReceiptOutput": {
    "type": "object",
    "properties": {
      "key": {
        "type": "string"
      },
      "action": {
        "type": "string"
      },
      "created_at": {
        "type": "string",
        "format": "date-time"
      },
      "result": {
        "type": "object",
        "additionalProperties": true
      }
    },
    "required": [
      "action",
      "created_at",
      "key",
      "result"
    ]
  },
  "RefusalOutput": {
    "type": "object",
    "properties": {
      "code": {
        "type": "string"
      },
      "message": {
        "type": "string"
      }
    },
    "required": [
      "code",
      "message"
    ]
  },
  "ReviewStateEnum": {
    "type": "string",
    "enum": [
      "unreviewed",
      "reviewed"
    ]
  },
  "RevisionInputRequest": {
    "type": "object",
    "properties": {
      "expected_revision": {
        "type": "integer"
      }
    },
    "required": [
      "expected_revision"
    ]
  },
  "RunFailInputRequest": {
    "type": "object",
    "properties": {
      "error_code": {
        "type": "string"
      }
    },
    "required": []
  },
  "RunOutput": {
    "type": "object",
    "properties": {
      "id": {
        "type": "string"
      },
      "session_id": {
        "type": "string"
      },
      "status": {
        "type": "string"
      },
      "error_code": {
        "type": "string"
      },
      "created_at": {
        "type": "string",
        "format": "date-time"
      },
      "finished_at": {
        "type": "string",
        "format": "date-time",
        "nullable": true
      }
    },
    "required": [
      "created_at",
      "error_code",
      "finished_at",
      "id",
      "session_id",
      "status"
    ]
  },
  "SensitivityEnum": {
    "type": "string",
    "enum": [
      "normal",
      "personal",
      "sensitive"
    ]
  },
  "SessionCreateInputRequest": {
    "type": "object",
    "properties": {
      "scope": {
        "type": "string"
      },
      "external_id": {
        "type": "string",
        "nullable": true
      }
    },
    "required": []
  },
  "SessionOutput": {
    "type": "object",
    "properties": {
      "id": {
        "type": "string"
      },
      "external_id": {
        "type": "string",
        "nullable": true
      },
      "scope": {
        "type": "string"
      },
      "created_at": {
        "type": "string",
        "format": "date-time"
      },
      "last_activity_at": {
        "type": "string",
        "format": "date-time"
      },
      "closed_at": {
        "type": "string",
        "format": "date-time",
        "nullable": true
      },
      "erased_at": {
        "type": "string",
        "format": "date-time",
        "nullable": true
      },
      "last_sequence": {
        "type": "integer"
      }
    },
    "required": [
      "closed_at",
      "created_at",
      "erased_at",
      "external_id",
      "id",
      "last_activity_at",
      "last_sequence",
      "scope"
    ]
  },
  "SourceOutput": {
    "type": "object",
    "properties": {
      "event_id": {
        "type": "string"
      },
      "session_id": {
        "type": "string"
      },
      "sequence": {
        "type": "integer"
      },
      "excerpt": {
        "type": "string"
      }
    },
    "required": [
      "event_id",
      "excerpt",
      "sequence",
      "session_id"
    ]
  },
  "StandingOutput": {
    "type": "object",
    "properties": {
      "id": {
        "type": "string"
      },
      "type": {
        "type": "string"
      },
      "subject": {
        "type": "string"
      },
      "statement": {
        "type": "string"
      },
      "polarity": {
        "type": "string"
      },
      "authority": {
        "type": "string"
      },
      "status": {
        "type": "string"
      },
      "revision": {
        "type": "integer"
      },
      "sources": {
        "type": "array",
        "items": {
          "ref": "ChallengeSourceOutput"
        }
      }
    },
    "required": [
      "authority",
      "id",
      "polarity",
      "revision",
      "sources",
      "statement",
      "status",
      "subject",
      "type"
    ]
  },
  "StatusEnum": {
    "type": "string",
    "enum": [
      "active",
      "invalidated",
      "undone",
      "expired",
      "promoted",
      "rejected",
      "deleted"
    ]
  },
  "SummaryJournalOutput": {
    "type": "object",
    "properties": {
      "id": {
        "type": "string"
      },
      "operation": {
        "type": "string"
      },
      "status": {
        "type": "string"
      },
      "review_state": {
        "type": "string"
      },
      "revision": {
        "type": "integer"
      },
      "restricted": {
        "type": "boolean"
      },
      "subject": {
        "type": "string"
      },
      "statement": {
        "type": "string"
      },
      "created_at": {
        "type": "string",
        "format": "date-time"
      },
      "updated_at": {
        "type": "string",
        "format": "date-time"
      },
      "claims": {
        "type": "array",
        "items": {
          "ref": "JournalClaimOutput"
        }
      },
      "omitted": {
        "type": "array",
        "items": {
          "ref": "JournalOriginalOutput"
        }
      }
    },
    "required": [
      "claims",
      "created_at",
      "id",
      "omitted",
      "operation",
      "restricted",
      "review_state",
      "revision",
      "statement",
      "status",
      "subject",
      "updated_at"
    ]
  },
  "TokenOutput": {
    "type": "object",
    "properties": {
      "id": {
        "type": "string"
      },
      "name": {
        "type": "string"
      },
      "prefix": {
        "type": "string"
      },
      "scope": {
        "type": "string"
      },
      "read_only": {
        "type": "boolean"
      },
      "include_sensitive": {
        "type": "boolean"
      },
      "created_at": {
        "type": "string",
        "format": "date-time"
      },
      "last_used_at": {
        "type": "string",
        "format": "date-time",
        "nullable": true
      },
      "paused_at": {
        "type": "string",
        "format": "date-time",
        "nullable": true
      },
      "revoked_at": {
        "type": "string",
        "format": "date-time",
        "nullable": true
      }
    },
    "required": [
      "created_at",
      "id",
      "include_sensitive",
      "last_used_at",
      "name",
      "paused_at",
      "prefix",
      "read_only",
      "revoked_at",
      "scope"
    ]
  },
  "UndoOutput": {
    "type": "object",
    "properties": {
      "receipt": {
        "ref": "ReceiptOutput"
      },
      "replayed": {
        "type": "boolean"
      }
    },
    "required": [
      "receipt",
      "replayed"
    ]
  },
  "UndoPreviewOutput": {
    "type": "object",
    "properties": {
      "id": {
        "type": "string"
      },
      "kind": {
        "ref": "OperationKindEnum"
      },
      "state": {
        "ref": "OperationStateEnum"
      },
      "revision": {
        "type": "integer"
      },
      "policy_version": {
        "type": "string"
      },
      "invalidation_reason": {
        "type": "string"
      },
      "created_at": {
        "type": "string",
        "format": "date-time"
      },
      "updated_at": {
        "type": "string",
        "format": "date-time"
      },
      "undoable": {
        "type": "boolean"
      },
      "refusal": {
        "allOf": [
          {
            "ref": "RefusalOutput"
          }
        ],
        "nullable": true
      },
      "expected_revision": {
        "type": "integer"
      },
      "restores": {
        "type": "array",
        "items": {
          "ref": "OperationInputOutput"
        }
      },
      "does_not_restore": {
        "type": "array",
        "items": {
          "ref": "OperationInputOutput"
        }
      },
      "sets_aside": {
        "type": "array",
        "items": {
          "ref": "OperationDerivedOutput"
        }
      }
    },
    "required": [
      "created_at",
      "does_not_restore",
      "expected_revision",
      "id",
      "invalidation_reason",
      "kind",
      "policy_version",
      "refusal",
      "restores",
      "revision",
      "sets_aside",
      "state",
      "undoable",
      "updated_at"
    ]
  }
} as const;
