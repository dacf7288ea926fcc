"""A random agent through the PettingZoo API (docs/learning.md): every seat of a table picks uniformly among
its legal actions, for a few deals, and each seat's total reward is printed.

    python examples/rl/random_agent.py [RULESET] [DEALS] [SEED]
"""

import sys

import sim.rl


def play(ruleset: str, deals: int, seed: int) -> dict[str, float]:
    environment = sim.rl.pettingzoo_env(ruleset)
    totals = dict.fromkeys(environment.possible_agents, 0.0)
    for index, agent in enumerate(environment.possible_agents):
        environment.action_space(agent).seed(seed + index)  # the agents' choices reproducible too
    for deal in range(deals):
        environment.reset(seed=seed if deal == 0 else None)  # seeded once: the deals follow in order
        for agent in environment.agent_iter():
            observation, reward, terminated, truncated, info = environment.last()
            totals[agent] += reward
            if terminated or truncated:
                action = None
            else:
                action = environment.action_space(agent).sample(observation["action_mask"])
            environment.step(action)
    return totals


def main() -> None:
    ruleset = sys.argv[1] if len(sys.argv) > 1 else "erren"
    deals = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    totals = play(ruleset, deals, seed)
    print(f"{deals} deals of {ruleset}, seed {seed}, a random agent in every seat")
    for agent, total in totals.items():
        print(f"  {agent}: {total:+.0f}")


if __name__ == "__main__":
    main()
